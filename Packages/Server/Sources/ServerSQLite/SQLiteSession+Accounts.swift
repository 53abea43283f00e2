import Foundation
import Models
import ServerSQL
import ServerStore

/// Users as SQLite keeps them (an admin is a supervisor marked `is_admin`,
/// a crew member or a client an inspector marked `later_role`: the role
/// column's CHECK predates them), sign-in failures, and what each user has stored, for the quotas.
extension SQLiteSession {
    /// The role a user's row holds in its `role` column.
    static func storedRole(_ role: UserRole) -> UserRole {
        switch role {
        case .admin: .supervisor
        case .crew, .client: .inspector
        case .inspector, .supervisor: role
        }
    }

    func users(role: UserRole) throws(ServerError) -> [StoredUser] {
        let stored = Self.storedRole(role)
        return try rows(
            "SELECT \(Self.userColumns) FROM users WHERE role = ? ORDER BY username", [.text(stored.rawValue)]
        )
        .compactMap { SQLRecords.user($0) }.filter { $0.role == role }
    }

    /// The writer holds the whole database: nothing to lock.
    func lockUsers() throws(ServerError) {}

    func upsertUser(id: String, username: String, passwordHash: String, role: UserRole, displayName: String)
        throws(ServerError)
    {
        try run(
            """
            INSERT INTO users (id, username, password_hash, role, display_name, is_admin, later_role)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(username) DO UPDATE SET password_hash = excluded.password_hash, role = excluded.role,
                display_name = excluded.display_name, is_admin = excluded.is_admin, later_role = excluded.later_role
            """,
            [
                .text(id), .text(username), .text(passwordHash), .text(Self.storedRole(role).rawValue),
                .text(displayName), .flag(role == .admin),
                .optional(role == .crew || role == .client ? role.rawValue : nil),
            ])
    }

    func countSignInFailures(key: String, adding: Int, now: Date, window: TimeInterval) throws(ServerError) -> (
        Int, Int64
    ) {
        let second = Int64(now.timeIntervalSince1970)
        let row = try firstRow(
            """
            INSERT INTO sign_in_failures (key, window_start, failures) VALUES (?1, ?2, ?3)
            ON CONFLICT(key) DO UPDATE SET
                failures = CASE WHEN window_start <= ?2 - ?4 THEN ?3 ELSE failures + ?3 END,
                window_start = CASE WHEN window_start <= ?2 - ?4 THEN ?2 ELSE window_start END
            RETURNING failures, window_start
            """, [.text(key), .integer(second), .count(adding), .integer(Int64(window))])
        return (Int(row?.integer("failures") ?? 0), row?.integer("window_start") ?? second)
    }

    func addUsage(userID: String, bytes: Int64, revisions: Int, day: String) throws(ServerError) {
        try run(
            """
            INSERT INTO user_usage (user_id, bytes, day, revisions) VALUES (?, ?, ?, ?)
            ON CONFLICT(user_id) DO UPDATE SET bytes = bytes + excluded.bytes,
                revisions = CASE WHEN day = excluded.day THEN revisions + excluded.revisions ELSE excluded.revisions END, day = excluded.day
            """, [.text(userID), .integer(bytes), .text(day), .count(revisions)])
    }
}
