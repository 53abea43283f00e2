import ServerSQL
import ServerStore

/// Action positions as PostgreSQL hands them out, from a counter.
extension PostgresSession {
    /// The counter's row stays locked until this transaction commits: positions are
    /// handed out in commit order, so a reader never later sees a lower one.
    func nextActionChange() throws(ServerError) -> Int64 {
        try firstRow("UPDATE counters SET value = value + 1 WHERE name = 'actions' RETURNING value")?.integer("value")
            ?? 0
    }
}
