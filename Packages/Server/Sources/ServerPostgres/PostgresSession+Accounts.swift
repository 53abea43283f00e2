import Foundation
import Models
import ServerSQL
import ServerStore

/// Users (an admin is kept as one), sign-in failures, and what each user
/// has stored, for the quotas, as PostgreSQL's upserts word them.
extension PostgresSession {
    func users(role: UserRole) throws(ServerError) -> [StoredUser] {
        try rows("SELECT \(Self.userColumns) FROM users WHERE role = $1 ORDER BY username", [.text(role.rawValue)])
            .compactMap { SQLRecords.user($0) }
    }

    /// Every user's row, locked until commit in the order of their ids.
    func lockUsers() throws(ServerError) {
        _ = try rows("SELECT id FROM users ORDER BY id FOR UPDATE", [])
    }

    func upsertUser(id: String, username: String, passwordHash: String, role: UserRole, displayName: String)
        throws(ServerError)
    {
        try run(
            """
            INSERT INTO users (id, username, password_hash, role, display_name) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (username) DO UPDATE SET password_hash = excluded.password_hash, role = excluded.role,
                display_name = excluded.display_name
            """, [.text(id), .text(username), .text(passwordHash), .text(role.rawValue), .text(displayName)])
    }

    func countSignInFailures(key: String, adding: Int, now: Date, window: TimeInterval) throws(ServerError) -> (
        Int, Int64
    ) {
        let second = Int64(now.timeIntervalSince1970)
        let row = try firstRow(
            """
            INSERT INTO sign_in_failures AS f (key, window_start, failures) VALUES ($1, $2, $3)
            ON CONFLICT (key) DO UPDATE SET
                failures = CASE WHEN f.window_start <= $2 - $4 THEN $3 ELSE f.failures + $3 END,
                window_start = CASE WHEN f.window_start <= $2 - $4 THEN $2 ELSE f.window_start END
            RETURNING failures, window_start
            """, [.text(key), .integer(second), .count(adding), .integer(Int64(window))])
        return (Int(row?.integer("failures") ?? 0), row?.integer("window_start") ?? second)
    }

    func addUsage(userID: String, bytes: Int64, revisions: Int, day: String) throws(ServerError) {
        try run(
            """
            INSERT INTO user_usage (user_id, bytes, day, revisions) VALUES ($1, $2, $3, $4)
            ON CONFLICT (user_id) DO UPDATE SET bytes = user_usage.bytes + excluded.bytes,
                revisions = CASE WHEN user_usage.day = excluded.day THEN user_usage.revisions + excluded.revisions ELSE excluded.revisions END,
                day = excluded.day
            """, [.text(userID), .integer(bytes), .text(day), .count(revisions)])
    }
}
