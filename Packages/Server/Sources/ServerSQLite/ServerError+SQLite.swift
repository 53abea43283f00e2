import ServerCore
import SQLite

extension ServerError {
    /// 500 for a failure of the database underneath; the message is SQLite's one line.
    /// A database held by another connection past the busy timeout is 503 with `Retry-After`.
    static func database(_ error: SQLiteError) -> ServerError {
        if error.code == .busy { return busy() }
        return ServerError(status: 500, code: "INTERNAL", "the server's database failed: \(error.message)")
    }
}
