import Foundation
import Models
import ServerStore
import SQLite

/// Users, sessions and refresh tokens.
extension SQLiteSession {
    static let userColumns = "id, username, role, display_name, password_hash, is_admin, disabled_at"

    /// The user in `row`, its columns named with `prefix` (for joins).
    static func user(_ row: Row, prefix: String = "") -> StoredUser? {
        guard let id = row.text(prefix + "id"), let name = row.text(prefix + "username"),
            let role = row.text(prefix + "role").flatMap(UserRole.init(rawValue:)),
            let display = row.text(prefix + "display_name"), let hash = row.text(prefix + "password_hash")
        else { return nil }
        // An admin is kept as a supervisor marked is_admin (see migration 005).
        let administers = (row.integer(prefix + "is_admin") ?? 0) != 0
        return StoredUser(
            id: id, username: name, role: administers ? .admin : role, displayName: display, passwordHash: hash,
            disabledAt: row.text(prefix + "disabled_at"))
    }

    func user(username: String) throws(ServerError) -> StoredUser? {
        try db.query("SELECT \(Self.userColumns) FROM users WHERE username = ?", [.text(username)]).first.flatMap {
            Self.user($0)
        }
    }

    func user(id: String) throws(ServerError) -> StoredUser? {
        try db.query("SELECT \(Self.userColumns) FROM users WHERE id = ?", [.text(id)]).first.flatMap { Self.user($0) }
    }

    func users(role: UserRole) throws(ServerError) -> [StoredUser] {
        let stored = role == .admin ? UserRole.supervisor : role
        return try db.query(
            "SELECT \(Self.userColumns) FROM users WHERE role = ? ORDER BY username", [.text(stored.rawValue)]
        )
        .compactMap { Self.user($0) }.filter { $0.role == role }
    }

    func allUsers() throws(ServerError) -> [StoredUser] {
        try db.query("SELECT \(Self.userColumns) FROM users ORDER BY username").compactMap { Self.user($0) }
    }

    func setUserDisabled(id: String, at: String?) throws(ServerError) {
        try db.update("UPDATE users SET disabled_at = ? WHERE id = ?", [.optional(at), .text(id)])
    }

    func upsertUser(id: String, username: String, passwordHash: String, role: UserRole, displayName: String)
        throws(ServerError)
    {
        let stored = role == .admin ? UserRole.supervisor : role
        try db.update(
            """
            INSERT INTO users (id, username, password_hash, role, display_name, is_admin) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(username) DO UPDATE SET password_hash = excluded.password_hash, role = excluded.role,
                display_name = excluded.display_name, is_admin = excluded.is_admin
            """,
            [
                .text(id), .text(username), .text(passwordHash), .text(stored.rawValue), .text(displayName),
                .integer(role == .admin ? 1 : 0),
            ])
    }

    func createSession(userID: String, refreshHash: String, now: Date) throws(ServerError) -> String {
        let id = UUID().uuidString.lowercased()
        let stamp = RFC3339.string(now)
        try db.update(
            "INSERT INTO sessions (id, user_id, created_at) VALUES (?, ?, ?)", [.text(id), .text(userID), .text(stamp)])
        try db.update(
            "INSERT INTO refresh_tokens (token_hash, session_id, issued_at) VALUES (?, ?, ?)",
            [.text(refreshHash), .text(id), .text(stamp)])
        return id
    }

    func rotateRefreshToken(
        presentedHash: String, nextHash: String, now: Date, idleLifetime: TimeInterval,
        maximumAge: TimeInterval
    ) throws(ServerError) -> (StoredUser, String)? {
        let rows = try db.query(
            """
            SELECT s.id AS session_id, s.user_id AS user_id, t.spent_at AS spent_at, t.issued_at AS issued_at,
                   s.created_at AS created_at, s.revoked_at AS revoked_at
            FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id WHERE t.token_hash = ?
            """, [.text(presentedHash)])
        guard let row = rows.first, let sessionID = row.text("session_id"), let userID = row.text("user_id"),
            row.text("revoked_at") == nil
        else { return nil }
        let issued = row.text("issued_at").flatMap(RFC3339.date) ?? .distantPast
        let created = row.text("created_at").flatMap(RFC3339.date) ?? .distantPast
        if row.text("spent_at") != nil || now.timeIntervalSince(issued) > idleLifetime
            || now.timeIntervalSince(created) > maximumAge
        {
            try revokeSession(id: sessionID, now: now)
            return nil
        }
        guard let user = try user(id: userID) else { return nil }
        let stamp = RFC3339.string(now)
        try db.update(
            "UPDATE refresh_tokens SET spent_at = ? WHERE token_hash = ?", [.text(stamp), .text(presentedHash)])
        try db.update(
            "INSERT INTO refresh_tokens (token_hash, session_id, issued_at) VALUES (?, ?, ?)",
            [.text(nextHash), .text(sessionID), .text(stamp)])
        return (user, sessionID)
    }

    func isSessionLive(_ id: String, userID: String) throws(ServerError) -> Bool {
        try !db.query(
            "SELECT 1 AS live FROM sessions WHERE id = ? AND user_id = ? AND revoked_at IS NULL",
            [.text(id), .text(userID)]
        ).isEmpty
    }

    func revokeSession(id: String, now: Date) throws(ServerError) {
        try db.update(
            "UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
            [.text(RFC3339.string(now)), .text(id)])
    }

    func revokeSessions(userID: String, now: Date) throws(ServerError) {
        try db.update(
            "UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
            [.text(RFC3339.string(now)), .text(userID)])
    }

    func countSignInFailures(key: String, adding: Int, now: Date, window: TimeInterval) throws(ServerError) -> (
        Int, Int64
    ) {
        let second = Int64(now.timeIntervalSince1970)
        let row = try db.query(
            """
            INSERT INTO sign_in_failures (key, window_start, failures) VALUES (?1, ?2, ?3)
            ON CONFLICT(key) DO UPDATE SET
                failures = CASE WHEN window_start <= ?2 - ?4 THEN ?3 ELSE failures + ?3 END,
                window_start = CASE WHEN window_start <= ?2 - ?4 THEN ?2 ELSE window_start END
            RETURNING failures, window_start
            """, [.text(key), .integer(second), .integer(Int64(adding)), .integer(Int64(window))]
        ).first
        return (Int(row?.integer("failures") ?? 0), row?.integer("window_start") ?? second)
    }

    func clearSignInFailures(key: String, staleBefore: Date) throws(ServerError) {
        try db.update(
            "DELETE FROM sign_in_failures WHERE key = ? OR window_start < ?",
            [.text(key), .integer(Int64(staleBefore.timeIntervalSince1970))])
    }

    func revokeSession(refreshHash: String, userID: String) throws(ServerError) {
        try db.update(
            """
            UPDATE sessions SET revoked_at = ? WHERE revoked_at IS NULL AND user_id = ?
              AND id = (SELECT session_id FROM refresh_tokens WHERE token_hash = ?)
            """, [.text(RFC3339.string(Date())), .text(userID), .text(refreshHash)])
    }
}

/// What each user has stored, for the quotas.
extension SQLiteSession {
    func usage(userID: String, day: String) throws(ServerError) -> (bytes: Int64, revisions: Int) {
        guard
            let row = try db.query("SELECT bytes, day, revisions FROM user_usage WHERE user_id = ?", [.text(userID)])
                .first
        else {
            return (0, 0)
        }
        return (row.integer("bytes") ?? 0, row.text("day") == day ? Int(row.integer("revisions") ?? 0) : 0)
    }

    func addUsage(userID: String, bytes: Int64, revisions: Int, day: String) throws(ServerError) {
        try db.update(
            """
            INSERT INTO user_usage (user_id, bytes, day, revisions) VALUES (?, ?, ?, ?)
            ON CONFLICT(user_id) DO UPDATE SET bytes = bytes + excluded.bytes,
                revisions = CASE WHEN day = excluded.day THEN revisions + excluded.revisions ELSE excluded.revisions END, day = excluded.day
            """, [.text(userID), .integer(bytes), .text(day), .integer(Int64(revisions))])
    }
}
