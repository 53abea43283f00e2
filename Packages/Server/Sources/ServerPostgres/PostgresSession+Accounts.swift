import Foundation
import Models
import PostgreSQL
import ServerStore

/// Users, sessions and refresh tokens.
extension PostgresSession {
    static let userColumns = "id, username, role, display_name, password_hash, disabled_at"

    static func user(_ row: PostgresRow, prefix: String = "") -> StoredUser? {
        guard let id = row.string(prefix + "id"), let name = row.string(prefix + "username"),
            let role = row.string(prefix + "role").flatMap(UserRole.init(rawValue:)),
            let display = row.string(prefix + "display_name"), let hash = row.string(prefix + "password_hash")
        else { return nil }
        return StoredUser(
            id: id, username: name, role: role, displayName: display, passwordHash: hash,
            disabledAt: row.string(prefix + "disabled_at"))
    }

    func user(username: String) throws(ServerError) -> StoredUser? {
        try query("SELECT \(Self.userColumns) FROM users WHERE username = $1", [.text(username)]).first.flatMap {
            Self.user($0)
        }
    }

    func user(id: String) throws(ServerError) -> StoredUser? {
        try query("SELECT \(Self.userColumns) FROM users WHERE id = $1", [.text(id)]).first.flatMap { Self.user($0) }
    }

    func users(role: UserRole) throws(ServerError) -> [StoredUser] {
        try query("SELECT \(Self.userColumns) FROM users WHERE role = $1 ORDER BY username", [.text(role.rawValue)])
            .compactMap { Self.user($0) }
    }

    func allUsers() throws(ServerError) -> [StoredUser] {
        try query("SELECT \(Self.userColumns) FROM users ORDER BY username").compactMap { Self.user($0) }
    }

    func setUserDisabled(id: String, at: String?) throws(ServerError) {
        try query("UPDATE users SET disabled_at = $1 WHERE id = $2", [.optional(at), .text(id)])
    }

    func upsertUser(id: String, username: String, passwordHash: String, role: UserRole, displayName: String)
        throws(ServerError)
    {
        try query(
            """
            INSERT INTO users (id, username, password_hash, role, display_name) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (username) DO UPDATE SET password_hash = excluded.password_hash, role = excluded.role,
                display_name = excluded.display_name
            """, [.text(id), .text(username), .text(passwordHash), .text(role.rawValue), .text(displayName)])
    }

    func createSession(userID: String, refreshHash: String, now: Date) throws(ServerError) -> String {
        let id = UUID().uuidString.lowercased()
        let stamp = RFC3339.string(now)
        try query(
            "INSERT INTO sessions (id, user_id, created_at) VALUES ($1, $2, $3)",
            [.text(id), .text(userID), .text(stamp)])
        try query(
            "INSERT INTO refresh_tokens (token_hash, session_id, issued_at) VALUES ($1, $2, $3)",
            [.text(refreshHash), .text(id), .text(stamp)])
        return id
    }

    /// The presented token's row is locked first, so of two instances
    /// presenting it at once one spends it and the other finds it spent.
    func rotateRefreshToken(
        presentedHash: String, nextHash: String, now: Date, idleLifetime: TimeInterval,
        maximumAge: TimeInterval
    ) throws(ServerError) -> (StoredUser, String)? {
        let rows = try query(
            """
            SELECT s.id AS session_id, s.user_id AS user_id, t.spent_at AS spent_at, t.issued_at AS issued_at,
                   s.created_at AS created_at, s.revoked_at AS revoked_at
            FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id WHERE t.token_hash = $1 FOR UPDATE OF t, s
            """, [.text(presentedHash)])
        guard let row = rows.first, let sessionID = row.string("session_id"), let userID = row.string("user_id"),
            row.isNull("revoked_at")
        else { return nil }
        let issued = row.string("issued_at").flatMap(RFC3339.date) ?? .distantPast
        let created = row.string("created_at").flatMap(RFC3339.date) ?? .distantPast
        if !row.isNull("spent_at") || now.timeIntervalSince(issued) > idleLifetime
            || now.timeIntervalSince(created) > maximumAge
        {
            try revokeSession(id: sessionID, now: now)
            return nil
        }
        guard let user = try user(id: userID) else { return nil }
        let stamp = RFC3339.string(now)
        try query(
            "UPDATE refresh_tokens SET spent_at = $1 WHERE token_hash = $2", [.text(stamp), .text(presentedHash)])
        try query(
            "INSERT INTO refresh_tokens (token_hash, session_id, issued_at) VALUES ($1, $2, $3)",
            [.text(nextHash), .text(sessionID), .text(stamp)])
        return (user, sessionID)
    }

    func isSessionLive(_ id: String, userID: String) throws(ServerError) -> Bool {
        try !query(
            "SELECT 1 AS live FROM sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL",
            [.text(id), .text(userID)]
        ).isEmpty
    }

    func revokeSession(id: String, now: Date) throws(ServerError) {
        try query(
            "UPDATE sessions SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL",
            [.text(RFC3339.string(now)), .text(id)])
    }

    func revokeSessions(userID: String, now: Date) throws(ServerError) {
        try query(
            "UPDATE sessions SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL",
            [.text(RFC3339.string(now)), .text(userID)])
    }

    func countSignInFailures(key: String, adding: Int, now: Date, window: TimeInterval) throws(ServerError) -> (
        Int, Int64
    ) {
        let second = Int64(now.timeIntervalSince1970)
        let row = try query(
            """
            INSERT INTO sign_in_failures AS f (key, window_start, failures) VALUES ($1, $2, $3)
            ON CONFLICT (key) DO UPDATE SET
                failures = CASE WHEN f.window_start <= $2 - $4 THEN $3 ELSE f.failures + $3 END,
                window_start = CASE WHEN f.window_start <= $2 - $4 THEN $2 ELSE f.window_start END
            RETURNING failures, window_start
            """, [.text(key), .integer(second), .integer(Int64(adding)), .integer(Int64(window))]
        ).first
        return (Int(row?.int("failures") ?? 0), row?.int("window_start") ?? second)
    }

    func clearSignInFailures(key: String, staleBefore: Date) throws(ServerError) {
        try query(
            "DELETE FROM sign_in_failures WHERE key = $1 OR window_start < $2",
            [.text(key), .integer(Int64(staleBefore.timeIntervalSince1970))])
    }

    func revokeSession(refreshHash: String, userID: String) throws(ServerError) {
        try query(
            """
            UPDATE sessions SET revoked_at = $1 WHERE revoked_at IS NULL AND user_id = $2
              AND id = (SELECT session_id FROM refresh_tokens WHERE token_hash = $3)
            """, [.text(RFC3339.string(Date())), .text(userID), .text(refreshHash)])
    }
}

/// What each user has stored, for the quotas.
extension PostgresSession {
    func usage(userID: String, day: String) throws(ServerError) -> (bytes: Int64, revisions: Int) {
        guard
            let row = try query(
                "SELECT bytes, day, revisions FROM user_usage WHERE user_id = $1\(lockClause)", [.text(userID)]
            ).first
        else {
            return (0, 0)
        }
        return (row.int("bytes") ?? 0, row.string("day") == day ? Int(row.int("revisions") ?? 0) : 0)
    }

    func addUsage(userID: String, bytes: Int64, revisions: Int, day: String) throws(ServerError) {
        try query(
            """
            INSERT INTO user_usage (user_id, bytes, day, revisions) VALUES ($1, $2, $3, $4)
            ON CONFLICT (user_id) DO UPDATE SET bytes = user_usage.bytes + excluded.bytes,
                revisions = CASE WHEN user_usage.day = excluded.day THEN user_usage.revisions + excluded.revisions ELSE excluded.revisions END,
                day = excluded.day
            """, [.text(userID), .integer(bytes), .text(day), .integer(Int64(revisions))])
    }
}
