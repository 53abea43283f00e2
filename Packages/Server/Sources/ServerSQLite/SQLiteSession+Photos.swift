import Foundation
import Models
import ServerStore
import SQLite

/// Photo records; the bytes are in the `PhotoVault`.
extension SQLiteSession {
    static let photoColumns = "local_id, server_id, field_id, issue_local_id, sha256, byte_size"

    static func photo(_ row: Row) -> StoredPhoto? {
        guard let local = row.uuid("local_id"), let serverID = row.text("server_id"), let sha = row.text("sha256")
        else { return nil }
        return StoredPhoto(
            localID: local, serverID: serverID, fieldID: row.text("field_id"),
            issueLocalID: row.uuid("issue_local_id"), sha256: sha, byteSize: row.integer("byte_size") ?? 0)
    }

    func unexpiredUpload(localID: UUID, userID: String, now: Date) throws(ServerError) -> StoredUpload? {
        try db.query(
            "SELECT \(SQLiteUploadStore.columns) FROM resumable_uploads WHERE local_id = ? AND user_id = ? AND expires_at > ?",
            [.id(localID), .text(userID), .integer(Int64(now.timeIntervalSince1970))]
        ).first.flatMap(SQLiteUploadStore.upload)
    }

    func unexpiredUpload(id: String, userID: String, now: Date) throws(ServerError) -> StoredUpload? {
        try db.query(
            "SELECT \(SQLiteUploadStore.columns) FROM resumable_uploads WHERE id = ? AND user_id = ? AND expires_at > ?",
            [.text(id), .text(userID), .integer(Int64(now.timeIntervalSince1970))]
        ).first.flatMap(SQLiteUploadStore.upload)
    }

    func finishUpload(_ id: String, at: Date) throws(ServerError) {
        try db.update(
            "UPDATE resumable_uploads SET finished_at = ?, byte_offset = byte_size WHERE id = ?",
            [.text(RFC3339.string(at)), .text(id)])
    }

    func photo(localID: UUID) throws(ServerError) -> StoredPhoto? {
        try db.query("SELECT \(Self.photoColumns) FROM photos WHERE local_id = ?", [.id(localID)]).first.flatMap(
            Self.photo)
    }

    func photos(serverID: String) throws(ServerError) -> [StoredPhoto] {
        try db.query(
            "SELECT \(Self.photoColumns) FROM photos WHERE server_id = ? ORDER BY created_at, local_id",
            [.text(serverID)]
        ).compactMap(Self.photo)
    }

    func photoCount(serverID: String) throws(ServerError) -> Int {
        Int(
            try db.query("SELECT COUNT(*) AS held FROM photos WHERE server_id = ?", [.text(serverID)]).first?.integer(
                "held") ?? 0)
    }

    func insertPhoto(_ photo: StoredPhoto, uploadedBy: String) throws(ServerError) {
        try db.update(
            """
            INSERT INTO photos (local_id, server_id, field_id, issue_local_id, sha256, byte_size, uploaded_by, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .id(photo.localID), .text(photo.serverID), .optional(photo.fieldID), .id(photo.issueLocalID),
                .text(photo.sha256), .integer(photo.byteSize), .text(uploadedBy), .text(RFC3339.string(Date())),
            ])
    }
}
