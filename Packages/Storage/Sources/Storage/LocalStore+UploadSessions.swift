import Foundation
import Models
import SQLite

/// Where a photo's resumable upload continues (contract 1.1): the server's
/// url for it and the bytes it last said it held. Kept across runs, so a
/// killed agent asks the same upload how far it got instead of starting over.
public struct PhotoUploadSession: Sendable, Hashable {
    /// The upload's path on the server, under `/api/v1/`.
    public var url: String
    /// Bytes the server held when last heard from.
    public var offset: Int64

    /// A session.
    public init(url: String, offset: Int64) {
        self.url = url
        self.offset = offset
    }
}

extension LocalStore {
    /// Every upload kept, by photo: read once for a whole run of uploads
    /// instead of once a photo (only uploads cut short are kept, so there are few).
    public func uploadSessions() throws(StorageError) -> [UUID: PhotoUploadSession] {
        try read { db throws(StorageError) -> [UUID: PhotoUploadSession] in
            var sessions: [UUID: PhotoUploadSession] = [:]
            for row in try db.rows("SELECT photo_local_id, url, byte_offset FROM photo_upload_sessions") {
                guard let id = row["photo_local_id"].uuidValue, let url = row["url"].stringValue,
                    let offset = row["byte_offset"].int64Value
                else { continue }
                sessions[id] = PhotoUploadSession(url: url, offset: offset)
            }
            return sessions
        }
    }

    /// Remembers the upload a photo continues and how far it got.
    public func saveUploadSession(_ session: PhotoUploadSession, photo localID: UUID) throws(StorageError) {
        _ = try write { db throws(StorageError) -> Int in
            try db.run(
                """
                INSERT INTO photo_upload_sessions (photo_local_id, url, byte_offset, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (photo_local_id) DO UPDATE SET url = excluded.url, byte_offset = excluded.byte_offset,
                    updated_at = excluded.updated_at
                """, [SQLValue(localID), .text(session.url), .integer(session.offset), .text(RFC3339.string(Date()))])
        }
    }

    /// Forgets a photo's upload (it finished, or the server dropped it).
    public func forgetUploadSession(photo localID: UUID) throws(StorageError) {
        _ = try write { db throws(StorageError) -> Int in
            try db.run("DELETE FROM photo_upload_sessions WHERE photo_local_id = ?", [SQLValue(localID)])
        }
    }
}
