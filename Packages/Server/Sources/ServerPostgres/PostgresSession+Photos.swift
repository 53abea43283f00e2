import Foundation
import Models
import PostgreSQL
import ServerStore

/// Photo records; the bytes are in `photo_chunks`, by hash (`PostgresPhotoStore`).
extension PostgresSession {
    static let photoColumns = "local_id, server_id, field_id, issue_local_id, sha256, byte_size"

    static func photo(_ row: PostgresRow) -> StoredPhoto? {
        guard let local = row.uuid("local_id"), let serverID = row.string("server_id"), let sha = row.string("sha256")
        else { return nil }
        return StoredPhoto(
            localID: local, serverID: serverID, fieldID: row.string("field_id"),
            issueLocalID: row.uuid("issue_local_id"), sha256: sha, byteSize: row.int("byte_size") ?? 0)
    }

    func photo(localID: UUID) throws(ServerError) -> StoredPhoto? {
        try query("SELECT \(Self.photoColumns) FROM photos WHERE local_id = $1", [.id(localID)]).first.flatMap(
            Self.photo)
    }

    func photos(serverID: String) throws(ServerError) -> [StoredPhoto] {
        try query("SELECT \(Self.photoColumns) FROM photos WHERE server_id = $1 ORDER BY seq", [.text(serverID)])
            .compactMap(Self.photo)
    }

    func photoCount(serverID: String) throws(ServerError) -> Int {
        Int(
            try query("SELECT COUNT(*) AS held FROM photos WHERE server_id = $1", [.text(serverID)]).first?.int("held")
                ?? 0)
    }

    func unexpiredUpload(localID: UUID, userID: String, now: Date) throws(ServerError) -> StoredUpload? {
        try query(
            "SELECT \(PostgresUploadStore.columns) FROM resumable_uploads WHERE local_id = $1 AND user_id = $2 AND expires_at > $3",
            [PostgresValue.id(localID), .text(userID), .integer(Int64(now.timeIntervalSince1970))]
        ).first.flatMap(PostgresUploadStore.upload)
    }

    func unexpiredUpload(id: String, userID: String, now: Date) throws(ServerError) -> StoredUpload? {
        try query(
            "SELECT \(PostgresUploadStore.columns) FROM resumable_uploads WHERE id = $1 AND user_id = $2 AND expires_at > $3",
            [.text(id), .text(userID), .integer(Int64(now.timeIntervalSince1970))]
        ).first.flatMap(PostgresUploadStore.upload)
    }

    func finishUpload(_ id: String, at: Date) throws(ServerError) {
        try query("DELETE FROM upload_chunks WHERE upload_id = $1", [.text(id)])
        try query(
            "UPDATE resumable_uploads SET finished_at = $1, byte_offset = byte_size WHERE id = $2",
            [.text(RFC3339.string(at)), .text(id)])
    }

    func insertPhoto(_ photo: StoredPhoto, uploadedBy: String) throws(ServerError) {
        try query(
            """
            INSERT INTO photos (local_id, server_id, field_id, issue_local_id, sha256, byte_size, uploaded_by, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """,
            [
                .id(photo.localID), .text(photo.serverID), .optional(photo.fieldID), .id(photo.issueLocalID),
                .text(photo.sha256), .integer(photo.byteSize), .text(uploadedBy), .text(RFC3339.string(Date())),
            ])
    }
}
