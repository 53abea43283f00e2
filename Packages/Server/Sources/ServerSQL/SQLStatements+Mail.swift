import Models
import ServerStore

/// People's addresses and choices, and the mail outbox: what both stores
/// word alike (a claim, which PostgreSQL words with `SKIP LOCKED`, is each
/// store's own).
extension SQLStatements {
    public func email(userID: String) throws(ServerError) -> String? {
        try firstRow("SELECT email FROM users WHERE id = ?", [.text(userID)])?.text("email")
    }

    public func setEmail(userID: String, _ email: String?) throws(ServerError) {
        try run("UPDATE users SET email = ? WHERE id = ?", [.optional(email), .text(userID)])
    }

    public func mailPreferences(userID: String) throws(ServerError) -> MailPreferences? {
        try firstRow(
            "SELECT alerts, digest, digest_locked FROM mail_preferences WHERE user_id = ?", [.text(userID)]
        ).map(Self.preferences)
    }

    public func setMailPreferences(userID: String, _ preferences: MailPreferences, at: String) throws(ServerError) {
        try run(
            """
            INSERT INTO mail_preferences (user_id, alerts, digest, digest_locked, updated_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET alerts = excluded.alerts, digest = excluded.digest,
                digest_locked = excluded.digest_locked, updated_at = excluded.updated_at
            """,
            [
                .text(userID), .text(MailAlert.text(preferences.alerts)), .text(preferences.digest.rawValue),
                .flag(preferences.digestLocked), .text(at),
            ])
    }

    public func mailRecipients() throws(ServerError) -> [MailRecipient] {
        let people = try rows(
            """
            SELECT \(Self.userColumns.split(separator: ",").map { "u." + $0.trimmingCharacters(in: .whitespaces) }
                .joined(separator: ", ")),
                u.email, p.alerts, p.digest, p.digest_locked
            FROM users u LEFT JOIN mail_preferences p ON p.user_id = u.id
            WHERE u.email IS NOT NULL AND u.disabled_at IS NULL ORDER BY u.id
            """)
        var facilities: [String: Set<String>] = [:]
        for row in try rows("SELECT user_id, facility_id FROM client_facilities") {
            guard let user = row.text("user_id"), let facility = row.text("facility_id") else { continue }
            facilities[user, default: []].insert(facility)
        }
        return people.compactMap { row in
            guard let user = SQLRecords.user(row), let email = row.text("email") else { return nil }
            let chosen = row.text("alerts") == nil ? nil : Self.preferences(row)
            return MailRecipient(
                userID: user.id, username: user.username, displayName: user.displayName, role: user.role,
                email: email, preferences: chosen ?? .defaults(for: user.role),
                facilities: user.role == .client ? facilities[user.id] ?? [] : [])
        }
    }

    public func mailCursor(_ key: String) throws(ServerError) -> String? {
        try firstRow("SELECT value FROM settings WHERE key = ?\(lockClause)", [.text(key)])?.text("value")
    }

    public func enqueueMail(_ messages: [NewMail], dueAt: Int64, at: String) throws(ServerError) -> Int {
        var made = 0
        for message in messages {
            let inserted = try rows(
                """
                INSERT INTO mail_messages (message_id, kind, user_id, recipient, subject, body, state, attempts, next_attempt_at,
                                           created_at)
                VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)
                ON CONFLICT (message_id) DO NOTHING RETURNING id
                """,
                [
                    .text(message.messageID), .text(message.kind), .optional(message.userID), .text(message.recipient),
                    .text(message.subject), .text(message.body), .integer(dueAt), .text(at),
                ])
            made += inserted.count
        }
        return made
    }

    public func finishMail(id: Int64, lease: String, _ record: MailAttemptRecord, at: String) throws(ServerError)
        -> Bool
    {
        try !rows(
            """
            UPDATE mail_messages SET state = ?, attempts = attempts + 1, next_attempt_at = COALESCE(?, next_attempt_at),
                last_code = ?, last_reply = ?, last_attempt_at = ?, sent_at = CASE WHEN ? = 'sent' THEN ? ELSE sent_at END,
                lease_until = NULL, lease_owner = NULL
            WHERE id = ? AND lease_owner = ? RETURNING id
            """,
            [
                .text(record.state.rawValue), .optional(record.nextAttemptAt), .optional(record.code),
                .optional(record.reply), .text(at), .text(record.state.rawValue), .text(at), .integer(id), .text(lease),
            ]
        ).isEmpty
    }

    public func releaseMail(ids: [Int64], lease: String) throws(ServerError) {
        for id in ids {
            try run(
                "UPDATE mail_messages SET lease_until = NULL, lease_owner = NULL WHERE id = ? AND lease_owner = ?",
                [.integer(id), .text(lease)])
        }
    }

    public func mailMessages(failedOnly: Bool, limit: Int) throws(ServerError) -> [StoredMail] {
        try rows(
            """
            SELECT \(Self.mailColumns(body: false)) FROM mail_messages
            \(failedOnly ? "WHERE state = 'failed'" : "") ORDER BY id DESC LIMIT ?
            """, [.count(limit)]
        ).map(Self.mail)
    }

    public func mail(id: Int64) throws(ServerError) -> StoredMail? {
        try firstRow("SELECT \(Self.mailColumns(body: true)) FROM mail_messages WHERE id = ?", [.integer(id)]).map(
            Self.mail)
    }

    public func retryMail(id: Int64, dueAt: Int64) throws(ServerError) -> Bool {
        try !rows(
            """
            UPDATE mail_messages SET state = 'pending', attempts = 0, next_attempt_at = ?, lease_until = NULL, lease_owner = NULL
            WHERE id = ? RETURNING id
            """, [.integer(dueAt), .integer(id)]
        ).isEmpty
    }

    public func pruneMail(sentBefore before: String, limit: Int) throws(ServerError) -> Int {
        try rows(
            """
            DELETE FROM mail_messages WHERE id IN (
                SELECT id FROM mail_messages WHERE state = 'sent' AND sent_at < ? ORDER BY sent_at LIMIT ?) RETURNING id
            """, [.text(before), .count(limit)]
        ).count
    }

    public func mailCounts() throws(ServerError) -> [MailState: Int] {
        var counts: [MailState: Int] = [:]
        for row in try rows("SELECT state, COUNT(*) AS n FROM mail_messages GROUP BY state") {
            guard let state = row.text("state").flatMap(MailState.init(rawValue:)) else { continue }
            counts[state] = Int(row.integer("n") ?? 0)
        }
        return counts
    }

    public func mailReportEvents(afterChange: Int64, limit: Int) throws(ServerError) -> [MailReportEvent] {
        try rows(
            """
            SELECT e.server_id, e.at, e.actor_id, e.actor_name, e.kind, e.revision, e.comment, e.field_comments, e.change,
                   v.grade, v.issues <> '[]' AS has_issues
            FROM report_events e LEFT JOIN report_revisions v ON v.server_id = e.server_id AND v.revision = e.revision
            WHERE e.change > ? ORDER BY e.change LIMIT ?
            """, [.integer(afterChange), .count(limit)]
        ).map { row in
            MailReportEvent(
                event: SQLRecords.reportEvent(row), grade: ReportGrade(json: row.text("grade")),
                hasIssues: row.flag("has_issues") ?? true)
        }
    }

    public func latestEventChanges() throws(ServerError) -> (reports: Int64, actions: Int64) {
        let row = try firstRow(
            """
            SELECT (SELECT COALESCE(MAX(change), 0) FROM report_events) AS reports,
                   (SELECT COALESCE(MAX(change), 0) FROM action_events) AS actions
            """)
        return (row?.integer("reports") ?? 0, row?.integer("actions") ?? 0)
    }

    public func actionEvent(actionID: String, before change: Int64) throws(ServerError) -> StoredActionEvent? {
        try firstRow(
            """
            SELECT change, action_id, type, at, body FROM action_events WHERE action_id = ? AND change < ?
            ORDER BY change DESC LIMIT 1
            """, [.text(actionID), .integer(change)]
        ).map { row in
            StoredActionEvent(
                change: row.integer("change") ?? 0, actionID: row.text("action_id") ?? "",
                type: row.text("type").flatMap(WebhookEventType.init(rawValue:)) ?? .actionUpdated,
                at: row.text("at") ?? "", actionJSON: row.text("body") ?? "{}")
        }
    }

    public func actionsFallingDue(after: (dueAt: String, id: String), upTo: String, limit: Int) throws(ServerError)
        -> [OverdueAction]
    {
        try rows(
            """
            SELECT id, facility_id, title, severity, assignee_id, due_at, is_internal FROM actions
            WHERE due_at IS NOT NULL AND due_at <= ? AND (due_at > ? OR (due_at = ? AND id > ?))
              AND state IN ('open', 'in_progress')
            ORDER BY due_at, id LIMIT ?
            """, [.text(upTo), .text(after.dueAt), .text(after.dueAt), .text(after.id), .count(limit)]
        ).map { row in
            OverdueAction(
                id: row.text("id") ?? "", facilityID: row.text("facility_id") ?? "", title: row.text("title") ?? "",
                severity: row.text("severity") ?? "", assigneeID: row.text("assignee_id"),
                dueAt: row.text("due_at") ?? "", isInternal: row.flag("is_internal") ?? false)
        }
    }

    /// The columns a message is read from, its body only when asked.
    public static func mailColumns(body: Bool) -> String {
        """
        id, message_id, kind, user_id, recipient, subject, \(body ? "body" : "'' AS body"), state, attempts, next_attempt_at,
        last_code, last_reply, last_attempt_at, sent_at, created_at
        """
    }

    /// A message as `mailColumns` reads it.
    public static func mail(_ row: ResultRow) -> StoredMail {
        StoredMail(
            id: row.integer("id") ?? 0, messageID: row.text("message_id") ?? "", kind: row.text("kind") ?? "",
            userID: row.text("user_id"), recipient: row.text("recipient") ?? "", subject: row.text("subject") ?? "",
            body: row.text("body") ?? "", state: row.text("state").flatMap(MailState.init(rawValue:)) ?? .pending,
            attempts: Int(row.integer("attempts") ?? 0), nextAttemptAt: row.integer("next_attempt_at") ?? 0,
            lastCode: row.integer("last_code").map { Int($0) }, lastReply: row.text("last_reply"),
            lastAttemptAt: row.text("last_attempt_at"), sentAt: row.text("sent_at"),
            createdAt: row.text("created_at") ?? "")
    }

    /// Stored choices as a row holds them.
    static func preferences(_ row: ResultRow) -> MailPreferences {
        MailPreferences(
            alerts: MailAlert.list(row.text("alerts") ?? ""),
            digest: row.text("digest").flatMap(DigestFrequency.init(rawValue:)) ?? .off,
            digestLocked: row.flag("digest_locked") ?? false)
    }
}
