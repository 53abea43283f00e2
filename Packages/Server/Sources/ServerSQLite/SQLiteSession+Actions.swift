import ServerSQL
import ServerStore

/// Action positions as SQLite hands them out.
extension SQLiteSession {
    /// Writers take turns on one connection's lock, so the next position is the highest so far plus one.
    func nextActionChange() throws(ServerError) -> Int64 {
        (try firstRow("SELECT COALESCE(MAX(change), 0) AS latest FROM actions")?.integer("latest") ?? 0) + 1
    }
}
