import Foundation
import ServerSQL
import ServerStore
import SQLite

/// `StorageSession` on one SQLite connection, valid inside a `read` or
/// `write` of `SQLiteServerStorage`. The operations whose SQL both stores
/// share are ServerSQL's (`SQLStatements`); the ones SQLite words its own
/// way live here, one concern a file: accounts, reference data, reports,
/// photos, history, webhooks.
struct SQLiteSession: SQLStatements {
    let db: Database

    /// An admin is kept as a supervisor marked `is_admin` (see migration 005),
    /// a crew member as an inspector marked `later_role` (migration 012).
    static let userColumns = "id, username, role, display_name, password_hash, is_admin, later_role, disabled_at"

    /// One connection writes at a time: a read in a write needs no lock of its own.
    static let refreshTokenLock = ""

    /// The writer holds the whole database: nothing to add.
    var lockClause: String { "" }

    func rows(_ sql: String, _ values: [SQLParameter]) throws(ServerError) -> [Row] {
        try db.query(sql, values.map(\.sqlValue))
    }

    func run(_ sql: String, _ values: [SQLParameter]) throws(ServerError) {
        try db.update(sql, values.map(\.sqlValue))
    }

    /// Runs a statement that changes rows; how many it changed.
    func change(_ sql: String, _ values: [SQLParameter]) throws(ServerError) -> Int {
        try db.changing(sql, values.map(\.sqlValue))
    }
}
