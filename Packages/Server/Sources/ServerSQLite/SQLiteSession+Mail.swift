import ServerSQL
import ServerStore

/// The mail outbox's claim. One connection serves the process, so the
/// claim's read and lease are one statement under SQLite's write lock.
extension SQLiteSession {
    func claimMail(now: Int64, leaseUntil: Int64, lease: String, limit: Int) throws(ServerError) -> [StoredMail] {
        try rows(
            """
            UPDATE mail_messages SET lease_until = ?, lease_owner = ?
            WHERE id IN (SELECT id FROM mail_messages
                         WHERE state = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)
                         ORDER BY id LIMIT ?)
            RETURNING \(Self.mailColumns(body: true))
            """, [.integer(leaseUntil), .text(lease), .integer(now), .integer(now), .count(limit)]
        ).map(Self.mail).sorted { $0.id < $1.id }
    }
}
