import Foundation
import ServerStore

/// Photo records and resumable uploads' rows; where the bytes live is each store's own.
extension SQLStatements {
    public func photo(localID: UUID) throws(ServerError) -> StoredPhoto? {
        try firstRow("SELECT \(SQLRecords.photoColumns) FROM photos WHERE local_id = ?", [.id(localID)])
            .flatMap { SQLRecords.photo($0) }
    }

    public func photoCount(serverID: String) throws(ServerError) -> Int {
        Int(
            try firstRow("SELECT COUNT(*) AS held FROM photos WHERE server_id = ?", [.text(serverID)])?.integer("held")
                ?? 0)
    }

    public func insertPhoto(_ photo: StoredPhoto, uploadedBy: String) throws(ServerError) {
        try run(
            """
            INSERT INTO photos
                (local_id, server_id, field_id, issue_local_id, sha256, byte_size, uploaded_by, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .id(photo.localID), .text(photo.serverID), .optional(photo.fieldID), .id(photo.issueLocalID),
                .text(photo.sha256), .integer(photo.byteSize), .text(uploadedBy), .stamp(Date()),
            ])
    }

    public func unexpiredUpload(localID: UUID, userID: String, now: Date) throws(ServerError) -> StoredUpload? {
        try firstRow(
            """
            SELECT \(SQLRecords.uploadColumns) FROM resumable_uploads
            WHERE local_id = ? AND user_id = ? AND expires_at > ?
            """,
            [.id(localID), .text(userID), .seconds(now)]
        ).flatMap { SQLRecords.upload($0) }
    }

    public func unexpiredUpload(id: String, userID: String, now: Date) throws(ServerError) -> StoredUpload? {
        try firstRow(
            """
            SELECT \(SQLRecords.uploadColumns) FROM resumable_uploads
            WHERE id = ? AND user_id = ? AND expires_at > ?
            """,
            [.text(id), .text(userID), .seconds(now)]
        ).flatMap { SQLRecords.upload($0) }
    }
}
