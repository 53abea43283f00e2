import ServerStore
import SQLite

extension ServerError {
    /// 500 for a failure of the database underneath; the message is SQLite's one line.
    /// A database held by another connection past the busy timeout is 503 with `Retry-After`;
    /// a full disk (`SQLITE_FULL`, or an I/O error whose cause is `ENOSPC`/`EDQUOT`) is 507
    /// `STORAGE_FULL` with `Retry-After`: the transaction was rolled back, nothing half-stored.
    static func database(_ error: SQLiteError) -> ServerError {
        if error.code == .busy { return busy() }
        if error.code == .diskFull { return storageFull() }
        return ServerError(status: 500, code: .`internal`, "the server's database failed: \(error.message)")
    }
}
