import Foundation
import Models
import ServerSQL
import ServerStore

/// Resumable uploads of a SQLite server: a row each in `resumable_uploads`,
/// the bytes in `partial-<id>` in the server's private upload folder, made
/// when the first bytes are kept (a photo whose bytes all come in one
/// request is stored from that request, and never has one). The file is
/// only ever opened with `O_NOFOLLOW` and checked to be a regular file of
/// this user's with one name; its name comes from an id checked to be `U-`
/// and hex.
/// An append takes an `flock` on the file, writes and flushes the bytes,
/// then moves the row's offset only if it is still the one it read, so the
/// row never counts bytes that are not on disk.
struct SQLiteUploadStore: UploadStore {
    let storage: SQLiteServerStorage
    let folder: String

    private func path(_ id: String) throws(ServerError) -> String {
        guard StoredUpload.isID(id) else { throw ServerError.internal("'\(id.prefix(40))' is not an upload id") }
        return folder + "/partial-" + id
    }

    func upload(id: String, userID: String, now: Date) throws(ServerError) -> StoredUpload? {
        try held(
            try storage.withDatabase(writing: false) { db throws(ServerError) in
                try SQLiteSession(db: db).unexpiredUpload(id: id, userID: userID, now: now)
            })
    }

    func checked(_ upload: StoredUpload) throws(ServerError) -> StoredUpload? { try held(upload) }

    /// `upload`, if the folder holds its bytes (none are needed at offset 0,
    /// before its file is made). An unfinished upload whose file is missing,
    /// or shorter than its offset, is dropped and answered
    /// as gone: its bytes stayed behind when the database was restored from
    /// a backup (uploads in flight are not in one), or the upload folder was
    /// emptied. Left, it would be offered to the client again and again, and
    /// every byte sent to it refused.
    private func held(_ upload: StoredUpload?) throws(ServerError) -> StoredUpload? {
        guard let upload, !upload.finished else { return upload }
        var status = stat()
        guard lstat(try path(upload.id), &status) == 0 else {
            if errno == ENOENT && upload.offset == 0 { return upload }
            try drop(upload)
            return nil
        }
        if (status.st_mode & S_IFMT) == S_IFREG, Int64(status.st_size) >= upload.offset { return upload }
        try drop(upload)
        return nil
    }

    func create(_ upload: StoredUpload, now: Date, admit: (Int64) -> ServerError?) throws(ServerError) {
        _ = try path(upload.id)
        _ = try storage.withDatabase(writing: true) { db throws(ServerError) -> Bool in
            let session = SQLiteSession(db: db)
            let held =
                try session.firstRow(
                    """
                    SELECT COALESCE(SUM(byte_size), 0) AS held FROM resumable_uploads
                    WHERE user_id = ? AND finished_at IS NULL AND expires_at > ?
                    """, [.text(upload.userID), .seconds(now)]
                )?.integer("held") ?? 0
            if let refusal = admit(held) { throw refusal }
            try session.run(
                """
                INSERT INTO resumable_uploads (id, user_id, server_id, local_id, field_id, issue_local_id, sha256, byte_size,
                                               byte_offset, expires_at, created_at, \(SQLRecords.uploadTargetColumns))
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)
                """,
                [
                    .text(upload.id), .text(upload.userID), .text(upload.serverID), .id(upload.localID),
                    .optional(upload.fieldID),
                    .id(upload.issueLocalID), .text(upload.sha256), .integer(upload.byteSize),
                    .seconds(upload.expiresAt), .stamp(now),
                ] + SQLRecords.targetValues(upload))
            return true
        }
    }

    func append(
        _ upload: StoredUpload, from source: Int32, count: Int64, expiresAt: Date,
        durably: Bool
    ) throws(ServerError) -> UploadAppend {
        let descriptor = try openPartial(upload.id, writing: true)
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { throw ServerError.internal("cannot lock the upload") }
        let held = try storage.withDatabase(writing: false) { db throws(ServerError) -> StoredUpload? in
            try SQLiteSession(db: db).firstRow(
                "SELECT \(SQLRecords.uploadColumns) FROM resumable_uploads WHERE id = ?", [.text(upload.id)]
            ).flatMap { SQLRecords.upload($0) }
        }
        guard let held, !held.finished else {
            // Dropped or finished meanwhile: a file made by this append holds nothing anyone needs.
            unlink(try path(upload.id))
            return .gone
        }
        guard held.offset == upload.offset else { return .moved(held.offset) }
        var status = stat()
        // A file made just now, or emptied behind the server's back, does not hold the bytes the row counts.
        guard fstat(descriptor, &status) == 0, Int64(status.st_size) >= held.offset else { return .gone }
        // Bytes past the offset are from an append that never committed: they go first.
        guard ftruncate(descriptor, off_t(held.offset)) == 0 else {
            throw ServerError.internal("cannot trim the upload")
        }
        do throws(ServerError) {
            try UploadBytes.read(source, count: count) { at, bytes throws(ServerError) in
                try UploadBytes.write(bytes, to: descriptor, at: held.offset + at)
            }
        } catch {
            // Bytes that were not kept give their room back at once; the offset still says what is held.
            _ = ftruncate(descriptor, off_t(held.offset))
            throw error
        }
        // The last bytes: the photo is stored (and flushed) from them at once; until it is, the
        // row still says the earlier offset, and the bytes past it go first at the next append.
        if !durably { return .appended(held.offset + count) }
        guard fsync(descriptor) == 0 else {
            let failure = ServerError.disk(
                "cannot flush the upload to the server's disk; send it again later", errno: errno)
            // Bytes that were not kept give their room back at once; the offset still says what is held.
            _ = ftruncate(descriptor, off_t(held.offset))
            throw failure
        }
        let next = held.offset + count
        let changed: Int
        do throws(ServerError) {
            changed = try storage.withDatabase(writing: true) { db throws(ServerError) -> Int in
                try SQLiteSession(db: db).change(
                    "UPDATE resumable_uploads SET byte_offset = ?, expires_at = ? WHERE id = ? AND byte_offset = ?",
                    [.integer(next), .seconds(expiresAt), .text(upload.id), .integer(held.offset)])
            }
        } catch  where error.code == .storageFull {
            // The database could not move the offset (its transaction rolled back): the bytes past it give their room back.
            _ = ftruncate(descriptor, off_t(held.offset))
            throw error
        }
        return changed == 1 ? .appended(next) : .moved(held.offset)
    }

    func assemble(_ upload: StoredUpload) throws(ServerError) -> (descriptor: Int32, sha256: String) {
        let descriptor = try openPartial(upload.id, writing: false)
        guard descriptor >= 0 else {
            throw ServerError.internal("the upload's bytes are missing on the server's disk; begin it again")
        }
        do throws(ServerError) {
            var status = stat()
            guard fstat(descriptor, &status) == 0, Int64(status.st_size) == upload.byteSize else {
                throw ServerError.internal("the upload's bytes on the server's disk are not its size; begin it again")
            }
            return (descriptor, try UploadBytes.sha256(descriptor, count: upload.byteSize))
        } catch {
            close(descriptor)
            throw error
        }
    }

    func release(_ upload: StoredUpload) {
        guard StoredUpload.isID(upload.id) else { return }
        let path = folder + "/partial-" + upload.id
        // Most photos come whole in one request and never had a file. Looking costs nothing; an unlink holds
        // the upload folder's lock, which every request's body file waits on while it is made.
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        unlink(path)
    }

    func drop(_ upload: StoredUpload) throws(ServerError) {
        _ = try storage.withDatabase(writing: true) { db throws(ServerError) -> Int in
            try SQLiteSession(db: db).change("DELETE FROM resumable_uploads WHERE id = ?", [.text(upload.id)])
        }
        unlink(try path(upload.id))
    }

    func sweep(now: Date, limit: Int) throws(ServerError) -> Int {
        let query = "SELECT id FROM resumable_uploads WHERE expires_at <= ? LIMIT ?"
        let bounds: [SQLParameter] = [.seconds(now), .count(limit)]
        // Looked for first without the write lock: every new upload sweeps, and there is seldom anything to sweep.
        let due = try storage.withDatabase(writing: false) { db throws(ServerError) -> Bool in
            try SQLiteSession(db: db).firstRow(query, bounds) != nil
        }
        guard due else { return 0 }
        let expired = try storage.withDatabase(writing: true) { db throws(ServerError) -> [String] in
            let session = SQLiteSession(db: db)
            let ids = try session.rows(query, bounds).compactMap { $0.text("id") }
            for id in ids { try session.run("DELETE FROM resumable_uploads WHERE id = ?", [.text(id)]) }
            return ids
        }
        for id in expired where StoredUpload.isID(id) { unlink(folder + "/partial-" + id) }
        return expired.count
    }

    /// The upload's file, never through a link, checked to be a regular file
    /// of this user's with one name; made (0600) when `writing` and not
    /// there yet; -1 when it is not there to read.
    private func openPartial(_ id: String, writing: Bool) throws(ServerError) -> Int32 {
        let flags = writing ? O_RDWR | O_CREAT : O_RDONLY
        let descriptor = open(try path(id), flags | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == ENOENT && !writing { return -1 }
            if writing {
                throw ServerError.disk(
                    "cannot keep the upload's bytes on the server's disk; try again later", errno: errno)
            }
            throw ServerError.internal(
                "cannot open the upload on the server's disk (\(String(cString: strerror(errno))))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_uid == geteuid(),
            status.st_nlink == 1
        else {
            close(descriptor)
            throw ServerError.internal(
                "the upload's file on the server's disk is not one the server made; it was left alone")
        }
        return descriptor
    }
}
