import Foundation
import ServerSQL
import ServerStore

/// Photo records in upload order; the bytes are in the `PhotoVault`, an
/// unfinished upload's in its file (`SQLiteUploadStore`).
extension SQLiteSession {
    func photos(serverID: String) throws(ServerError) -> [StoredPhoto] {
        try rows(
            "SELECT \(SQLRecords.photoColumns) FROM photos WHERE server_id = ? ORDER BY created_at, local_id",
            [.text(serverID)]
        ).compactMap { SQLRecords.photo($0) }
    }

    func finishUpload(_ id: String, at: Date) throws(ServerError) {
        try run(
            "UPDATE resumable_uploads SET finished_at = ?, byte_offset = byte_size WHERE id = ?",
            [.stamp(at), .text(id)])
    }
}
