import Foundation
import Models
import ServerStore

/// Users, sessions, refresh tokens and sign-in failures.
extension SQLStatements {
    public func user(username: String) throws(ServerError) -> StoredUser? {
        try firstRow("SELECT \(Self.userColumns) FROM users WHERE username = ?", [.text(username)])
            .flatMap { SQLRecords.user($0) }
    }

    public func user(id: String) throws(ServerError) -> StoredUser? {
        try firstRow("SELECT \(Self.userColumns) FROM users WHERE id = ?", [.text(id)]).flatMap { SQLRecords.user($0) }
    }

    public func allUsers() throws(ServerError) -> [StoredUser] {
        try rows("SELECT \(Self.userColumns) FROM users ORDER BY username").compactMap { SQLRecords.user($0) }
    }

    public func setUserDisabled(id: String, at: String?) throws(ServerError) {
        try run("UPDATE users SET disabled_at = ? WHERE id = ?", [.optional(at), .text(id)])
    }

    public func createSession(userID: String, refreshHash: String, now: Date) throws(ServerError) -> String {
        let id = UUID().uuidString.lowercased()
        try run(
            "INSERT INTO sessions (id, user_id, created_at) VALUES (?, ?, ?)", [.text(id), .text(userID), .stamp(now)])
        try run(
            "INSERT INTO refresh_tokens (token_hash, session_id, issued_at) VALUES (?, ?, ?)",
            [.text(refreshHash), .text(id), .stamp(now)])
        return id
    }

    /// Spends the presented refresh token and issues `nextHash` in its
    /// session; the token's row is read first (and with `refreshTokenLock`).
    public func rotateRefreshToken(
        presentedHash: String, nextHash: String, now: Date, idleLifetime: TimeInterval,
        maximumAge: TimeInterval
    ) throws(ServerError) -> (StoredUser, String)? {
        let found = try firstRow(
            """
            SELECT s.id AS session_id, s.user_id AS user_id, t.spent_at AS spent_at, t.issued_at AS issued_at,
                   s.created_at AS created_at, s.revoked_at AS revoked_at
            FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id WHERE t.token_hash = ?\(Self.refreshTokenLock)
            """, [.text(presentedHash)])
        guard let row = found, let sessionID = row.text("session_id"), let userID = row.text("user_id"),
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
        try run("UPDATE refresh_tokens SET spent_at = ? WHERE token_hash = ?", [.stamp(now), .text(presentedHash)])
        try run(
            "INSERT INTO refresh_tokens (token_hash, session_id, issued_at) VALUES (?, ?, ?)",
            [.text(nextHash), .text(sessionID), .stamp(now)])
        return (user, sessionID)
    }

    public func isSessionLive(_ id: String, userID: String) throws(ServerError) -> Bool {
        try firstRow(
            "SELECT 1 AS live FROM sessions WHERE id = ? AND user_id = ? AND revoked_at IS NULL",
            [.text(id), .text(userID)]
        ) != nil
    }

    public func revokeSession(id: String, now: Date) throws(ServerError) {
        try run("UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", [.stamp(now), .text(id)])
    }

    public func revokeSessions(userID: String, now: Date) throws(ServerError) {
        try run(
            "UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", [.stamp(now), .text(userID)])
    }

    public func clearSignInFailures(key: String, staleBefore: Date) throws(ServerError) {
        try run("DELETE FROM sign_in_failures WHERE key = ? OR window_start < ?", [.text(key), .seconds(staleBefore)])
    }

    public func revokeSession(refreshHash: String, userID: String) throws(ServerError) {
        try run(
            """
            UPDATE sessions SET revoked_at = ? WHERE revoked_at IS NULL AND user_id = ?
              AND id = (SELECT session_id FROM refresh_tokens WHERE token_hash = ?)
            """, [.stamp(Date()), .text(userID), .text(refreshHash)])
    }

    /// What the user has stored, and how many revisions they sent on `day`;
    /// the row locked until commit inside a PostgreSQL write.
    public func usage(userID: String, day: String) throws(ServerError) -> (bytes: Int64, revisions: Int) {
        guard
            let row = try firstRow(
                "SELECT bytes, day, revisions FROM user_usage WHERE user_id = ?\(lockClause)", [.text(userID)])
        else { return (0, 0) }
        return (row.integer("bytes") ?? 0, row.text("day") == day ? Int(row.integer("revisions") ?? 0) : 0)
    }
}
