import Foundation

/// Brings a database's schema up to date by named, ordered steps: each step
/// runs in its own immediate transaction together with its row in the
/// ledger table, and `user_version` counts the steps applied.
///
/// The ledger is read again inside each transaction, so two processes
/// opening a new database together apply each step exactly once. A ledger
/// that names a step this build does not know, or a `user_version` past the
/// known steps, means a newer program wrote the database: nothing is
/// changed and `newerSchema` is thrown. A step, once released, is never
/// edited or reordered; a change to the schema is a new step at the end.
public struct Migrator: Sendable {
    /// One named step: SQL text without values (several statements allowed).
    public struct Step: Sendable {
        /// The step's name, recorded in the ledger.
        public let name: String
        /// The schema change.
        public let sql: String

        /// Makes a step from its name and SQL.
        public init(name: String, sql: String) {
            self.name = name
            self.sql = sql
        }
    }

    /// The table that records the applied steps by name.
    public let ledger: String
    /// Every step this build knows, in order.
    public let steps: [Step]
    /// Written into the header's `application_id` with the first step, marking the file as ours.
    public let applicationID: Int32?

    /// Makes a migrator; `ledger` is a table name chosen by the program, never text from outside.
    public init(ledger: String, steps: [Step], applicationID: Int32? = nil) {
        self.ledger = ledger
        self.steps = steps
        self.applicationID = applicationID
    }

    /// Applies every step the database lacks.
    public func migrate(_ db: Database) throws(SQLiteError) {
        if try db.userVersion() == steps.count, try isLedgerComplete(db) { return }
        for (index, step) in steps.enumerated() {
            try db.transaction { () throws(SQLiteError) in
                try db.execute(
                    "CREATE TABLE IF NOT EXISTS \(ledger) (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL)")
                let applied = try appliedNames(db)
                try refuseNewer(db, applied: applied)
                guard !applied.contains(step.name) else { return }
                if index == 0, let applicationID { try db.setApplicationID(applicationID) }
                try db.execute(step.sql)
                // The time is the database's own, written by SQLite in the RFC 3339 form the
                // product uses: this package depends on nothing of ours, not even Models.
                try db.run(
                    "INSERT INTO \(ledger) (name, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                    [.text(step.name)])
                try db.setUserVersion(index + 1)
            }
        }
    }

    private func isLedgerComplete(_ db: Database) throws(SQLiteError) -> Bool {
        let exists =
            try db.firstRow("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(ledger)]) != nil
        guard exists else { return false }
        // Equal, not a superset: a name this build does not know must reach `refuseNewer`.
        return try appliedNames(db) == Set(steps.map(\.name))
    }

    private func appliedNames(_ db: Database) throws(SQLiteError) -> Set<String> {
        Set(try db.rows("SELECT name FROM \(ledger)").compactMap { $0["name"].stringValue })
    }

    private func refuseNewer(_ db: Database, applied: Set<String>) throws(SQLiteError) {
        let version = try db.userVersion()
        let unknown = applied.subtracting(steps.map(\.name)).sorted()
        guard version > steps.count || !unknown.isEmpty else { return }
        let what = unknown.first.map { "migration '\($0)'" } ?? "schema version \(version)"
        throw SQLiteError(
            .newerSchema,
            "The database was written by a newer program (\(what); this one knows \(steps.count) steps); nothing was changed.",
            context: unknown.first ?? String(version))
    }
}
