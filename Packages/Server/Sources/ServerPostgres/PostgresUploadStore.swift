import Foundation
import Models
import ServerSQL
import ServerStore

/// Resumable uploads in PostgreSQL: a row each in `resumable_uploads` and
/// the bytes in `upload_chunks`, one row per piece at its byte position,
/// written in the transaction that moves the offset (the upload's row locked
/// `FOR UPDATE`), so the offset never counts bytes not committed and any
/// instance continues an upload another began. Pieces move one at a time
/// both ways; a finished upload is read back into a private local file to be
/// hashed and handed to the photo store.
struct PostgresUploadStore: UploadStore {
    let store: PostgresServerStorage
    /// A private local folder where a finished upload is read back.
    let scratchDirectory: String

    func upload(id: String, userID: String, now: Date) throws(ServerError) -> StoredUpload? {
        try store.reading { session throws(ServerError) in
            try session.unexpiredUpload(id: id, userID: userID, now: now)
        }
    }

    /// Its bytes are in the database, in step with its row.
    func checked(_ upload: StoredUpload) throws(ServerError) -> StoredUpload? { upload }

    func create(_ upload: StoredUpload, now: Date, admit: (Int64) -> ServerError?) throws(ServerError) {
        _ = try store.writing { session throws(ServerError) -> Bool in
            // The user's row orders two creations of theirs on two instances.
            _ = try session.rows("SELECT id FROM users WHERE id = $1 FOR UPDATE", [.text(upload.userID)])
            let held =
                try session.firstRow(
                    """
                    SELECT COALESCE(SUM(byte_size), 0)::bigint AS held FROM resumable_uploads
                    WHERE user_id = $1 AND finished_at IS NULL AND expires_at > $2
                    """, [.text(upload.userID), .seconds(now)]
                )?.integer("held") ?? 0
            if let refusal = admit(held) { throw refusal }
            try session.run(
                """
                INSERT INTO resumable_uploads (id, user_id, server_id, local_id, field_id, issue_local_id, sha256, byte_size,
                                               byte_offset, expires_at, created_at, \(SQLRecords.uploadTargetColumns))
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9, $10, $11, $12)
                """,
                [
                    .text(upload.id), .text(upload.userID), .text(upload.serverID), .id(upload.localID),
                    .optional(upload.fieldID), .id(upload.issueLocalID), .text(upload.sha256),
                    .integer(upload.byteSize), .seconds(upload.expiresAt), .stamp(now),
                ] + SQLRecords.targetValues(upload))
            return true
        }
    }

    /// Always durable: the chunks are rows of the database, which any instance may read next.
    func append(
        _ upload: StoredUpload, from source: Int32, count: Int64, expiresAt: Date,
        durably: Bool
    ) throws(ServerError) -> UploadAppend {
        try store.writing { session throws(ServerError) -> UploadAppend in
            guard
                let held = try session.firstRow(
                    "SELECT \(SQLRecords.uploadColumns) FROM resumable_uploads WHERE id = $1 FOR UPDATE",
                    [.text(upload.id)]
                ).flatMap({ SQLRecords.upload($0) }), !held.finished
            else { return .gone }
            guard held.offset == upload.offset else { return .moved(held.offset) }
            try session.run(
                "DELETE FROM upload_chunks WHERE upload_id = $1 AND position >= $2",
                [.text(upload.id), .integer(held.offset)])
            try UploadBytes.read(source, count: count) { at, bytes throws(ServerError) in
                try session.run(
                    "INSERT INTO upload_chunks (upload_id, position, bytes) VALUES ($1, $2, $3)",
                    [.text(upload.id), .integer(held.offset + at), .bytes(Array(bytes))])
            }
            try session.run(
                "UPDATE resumable_uploads SET byte_offset = $1, expires_at = $2 WHERE id = $3",
                [.integer(held.offset + count), .seconds(expiresAt), .text(upload.id)])
            return .appended(held.offset + count)
        }
    }

    func assemble(_ upload: StoredUpload) throws(ServerError) -> (descriptor: Int32, sha256: String) {
        var template = Array((scratchDirectory + "/upload-assembled-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw ServerError.internal(
                "cannot read the upload back (\(String(cString: strerror(errno)))); try again later")
        }
        // Kept by name until the photo store has it, removed after (and by the start-up sweep of `upload-*` after a crash).
        let name = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(name) }
        do throws(ServerError) {
            let written = try store.reading { session throws(ServerError) -> Int64 in
                var position: Int64 = 0
                while position < upload.byteSize {
                    guard
                        let bytes = try session.query(
                            "SELECT bytes FROM upload_chunks WHERE upload_id = $1 AND position = $2",
                            [.text(upload.id), .integer(position)]
                        ).first?.bytes("bytes"), !bytes.isEmpty
                    else {
                        throw ServerError.internal(
                            "upload \(upload.id) is missing bytes from \(position) in the database; begin it again")
                    }
                    let failure = bytes.withUnsafeBytes { raw -> ServerError? in
                        do throws(ServerError) {
                            try UploadBytes.write(raw, to: descriptor, at: position)
                            return nil
                        } catch {
                            return error
                        }
                    }
                    if let failure { throw failure }
                    position += Int64(bytes.count)
                }
                return position
            }
            guard written == upload.byteSize else {
                throw ServerError.internal("upload \(upload.id) holds more bytes than announced")
            }
            return (descriptor, try UploadBytes.sha256(descriptor, count: written))
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Nothing: the chunks went in the transaction that marked the upload finished.
    func release(_ upload: StoredUpload) {}

    func drop(_ upload: StoredUpload) throws(ServerError) {
        _ = try store.writing { session throws(ServerError) -> Bool in
            try session.run("DELETE FROM resumable_uploads WHERE id = $1", [.text(upload.id)])
            return true
        }
    }

    func sweep(now: Date, limit: Int) throws(ServerError) -> Int {
        try store.writing { session throws(ServerError) -> Int in
            try session.rows(
                """
                DELETE FROM resumable_uploads WHERE id IN (
                    SELECT id FROM resumable_uploads WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
                RETURNING id
                """, [.seconds(now), .count(limit)]
            ).count
        }
    }
}
