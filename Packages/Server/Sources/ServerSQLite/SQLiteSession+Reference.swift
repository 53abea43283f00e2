import Foundation
import ServerStore

/// The template revision and the assignments' change numbers, which SQLite
/// keeps without counters: its one writer at a time numbers changes in
/// commit order.
extension SQLiteSession {
    func bumpTemplateRevision() throws(ServerError) {
        try run(
            """
            INSERT INTO settings (key, value) VALUES (?, '1')
            ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)
            """, [.text(Self.templateRevisionKey)])
    }

    private static let templateRevisionKey = "templates_revision"

    func templateRevision() throws(ServerError) -> Int64 {
        Int64(try setting(Self.templateRevisionKey) ?? "0") ?? 0
    }

    // MARK: Assignments

    func latestChangeSequence() throws(ServerError) -> Int64 {
        try firstRow("SELECT COALESCE(MAX(change_seq), 0) AS latest FROM assignments")?.integer("latest") ?? 0
    }

    func nextChangeSequence() throws(ServerError) -> Int64 { try latestChangeSequence() + 1 }

    func closeAssignment(id: String, inspectorID: String) throws(ServerError) {
        let seq = try nextChangeSequence()
        try run(
            "UPDATE assignments SET status = 'closed', change_seq = ? WHERE id = ? AND inspector_id = ? AND status = 'open'",
            [.integer(seq), .text(id), .text(inspectorID)])
    }
}
