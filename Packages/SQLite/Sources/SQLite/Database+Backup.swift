internal import CSQLite
import Foundation

extension Database {
    /// Copies this database, as one consistent snapshot, into a new file at
    /// `path` through SQLite's online backup API (`sqlite3_backup_init`,
    /// one `step(-1)`, `finish`), then checks the copy with
    /// `PRAGMA integrity_check`. Other connections (other processes) may go
    /// on writing meanwhile: with WAL the copy is the database as it was
    /// when the step began. An existing file at `path` is refused; a copy
    /// that fails or does not check is removed.
    public func backup(to path: String) throws(SQLiteError) {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw SQLiteError(
                .cannotOpen, "'\(path)' already exists; give a new file.", openedPath: path, context: path)
        }
        do throws(SQLiteError) {
            let copy = try Database(path: path)
            guard let backup = sqlite3_backup_init(copy.handle, "main", handle, "main") else {
                throw SQLiteError.sqlite(
                    sqlite3_errcode(copy.handle), copy.lastNativeMessage, systemErrno: copy.lastSystemErrno,
                    context: path)
            }
            // Locked or busy source: wait and step again (the busy handler of this connection is not used by backup_step).
            var rc = sqlite3_backup_step(backup, -1)
            var tries = 0
            while (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) && tries < 300 {
                usleep(10_000)
                tries += 1
                rc = sqlite3_backup_step(backup, -1)
            }
            let finish = sqlite3_backup_finish(backup)
            guard rc == SQLITE_DONE, finish == SQLITE_OK else {
                let code = rc == SQLITE_DONE ? finish : rc
                throw SQLiteError.sqlite(code, copy.lastNativeMessage, systemErrno: copy.lastSystemErrno, context: path)
            }
            let check = try copy.rows("PRAGMA integrity_check").map { $0[0].stringValue ?? "" }
            guard check == ["ok"] else {
                throw SQLiteError(
                    .corrupt,
                    "The copy at '\(path)' did not check (\(check.prefix(3).joined(separator: "; "))); it was removed.",
                    context: path)
            }
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
            throw error
        }
    }
}
