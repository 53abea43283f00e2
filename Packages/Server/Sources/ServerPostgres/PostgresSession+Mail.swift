import ServerSQL
import ServerStore

/// The mail outbox's claim: rows another instance is claiming are skipped,
/// never waited for, so two instances never take the same message at once.
extension PostgresSession {
    func claimMail(now: Int64, leaseUntil: Int64, lease: String, limit: Int) throws(ServerError) -> [StoredMail] {
        try rows(
            """
            WITH due AS (
                SELECT id FROM mail_messages
                WHERE state = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
                ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)
            UPDATE mail_messages SET lease_until = $3, lease_owner = $4 FROM due WHERE mail_messages.id = due.id
            RETURNING \(Self.mailColumns(body: true).replacingOccurrences(of: "id, message_id", with: "mail_messages.id, message_id"))
            """, [.integer(now), .count(limit), .integer(leaseUntil), .text(lease)]
        ).map(Self.mail).sorted { $0.id < $1.id }
    }
}
