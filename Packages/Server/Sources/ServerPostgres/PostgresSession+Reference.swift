import Foundation
import ServerStore

/// The template revision and the assignments' change numbers, kept in
/// `counters` rows: many instances write at once, so a number is handed out
/// under its counter's row lock, in commit order.
extension PostgresSession {
    func bumpTemplateRevision() throws(ServerError) {
        try run("UPDATE counters SET value = value + 1 WHERE name = 'templates'", [])
    }

    func templateRevision() throws(ServerError) -> Int64 {
        try firstRow("SELECT value FROM counters WHERE name = 'templates'")?.integer("value") ?? 0
    }

    // MARK: Assignments

    func latestChangeSequence() throws(ServerError) -> Int64 {
        try firstRow("SELECT value FROM counters WHERE name = 'assignments'")?.integer("value") ?? 0
    }

    /// The next change number: the counter row stays locked until commit, so
    /// changes commit in the order of their numbers and a cursor skips none.
    func nextChangeSequence() throws(ServerError) -> Int64 {
        try firstRow("UPDATE counters SET value = value + 1 WHERE name = 'assignments' RETURNING value")?.integer(
            "value") ?? 0
    }

    func closeAssignment(id: String, inspectorID: String) throws(ServerError) {
        let open = try firstRow(
            "SELECT 1 AS found FROM assignments WHERE id = $1 AND inspector_id = $2 AND status = 'open' FOR UPDATE",
            [.text(id), .text(inspectorID)])
        guard open != nil else { return }
        let seq = try nextChangeSequence()
        try run(
            "UPDATE assignments SET status = 'closed', change_seq = $1 WHERE id = $2 AND inspector_id = $3 AND status = 'open'",
            [.integer(seq), .text(id), .text(inspectorID)])
    }
}
