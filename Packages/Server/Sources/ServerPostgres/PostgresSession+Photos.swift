import Foundation
import ServerSQL
import ServerStore

/// Photo records in upload order; the bytes are in `photo_chunks`, by hash
/// (`PostgresPhotoStore`), an unfinished upload's in `upload_chunks`.
extension PostgresSession {
    func photos(serverID: String) throws(ServerError) -> [StoredPhoto] {
        try rows("SELECT \(SQLRecords.photoColumns) FROM photos WHERE server_id = $1 ORDER BY seq", [.text(serverID)])
            .compactMap { SQLRecords.photo($0) }
    }

    func finishUpload(_ id: String, at: Date) throws(ServerError) {
        try run("DELETE FROM upload_chunks WHERE upload_id = $1", [.text(id)])
        try run(
            "UPDATE resumable_uploads SET finished_at = $1, byte_offset = byte_size WHERE id = $2",
            [.stamp(at), .text(id)])
    }
}
