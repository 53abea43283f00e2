import Foundation
import ServerSQL
import ServerStore

/// Webhooks, the outbox of their events, and deliveries. One connection
/// serves the process, so a claim's read and lease are one step; the admin
/// command's connection in another process is ordered by SQLite's locks.
extension SQLiteSession {
    func insertWebhook(_ webhook: StoredWebhook) throws(ServerError) {
        try run(
            """
            INSERT INTO webhooks (id, position, url, events, secret, allow_private, created_at, disabled_at, disabled_reason, cursor,
                                  action_cursor)
            VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM webhooks), ?, ?, ?, ?, ?, ?, ?,
                    (SELECT COALESCE(MAX(change), 0) FROM report_events), (SELECT COALESCE(MAX(change), 0) FROM action_events))
            """,
            [
                .text(webhook.id), .text(webhook.url), .text(WebhookEventType.text(webhook.events)),
                .text(webhook.secret),
                .flag(webhook.allowsPrivateTargets), .text(webhook.createdAt), .optional(webhook.disabledAt),
                .optional(webhook.disabledReason),
            ])
    }

    func deleteWebhook(id: String) throws(ServerError) -> Bool {
        try run("DELETE FROM webhook_deliveries WHERE webhook_id = ?", [.text(id)])
        return try change("DELETE FROM webhooks WHERE id = ?", [.text(id)]) > 0
    }

    func webhooksForFanOut() throws(ServerError) -> [FanOutHook] {
        try rows(
            "SELECT \(SQLRecords.hookColumns), h.cursor, h.action_cursor FROM webhooks h WHERE h.disabled_at IS NULL ORDER BY h.position"
        ).map { row in
            FanOutHook(
                hook: SQLRecords.webhook(row), cursor: row.integer("cursor") ?? 0,
                actionCursor: row.integer("action_cursor") ?? 0)
        }
    }

    func enqueueWebhookEvents(
        _ events: [WebhookEvent], to webhooks: [(id: String, events: [WebhookEventType])],
        dueAt: Int64
    ) throws(ServerError) {
        for event in events {
            for hook in webhooks where hook.events.contains(event.type) {
                try run(
                    """
                    INSERT INTO webhook_deliveries (webhook_id, event_id, type, at, report_server_id, body, state, attempts, next_attempt_at)
                    VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?)
                    """,
                    [
                        .text(hook.id), .text(event.id), .text(event.type.rawValue), .text(event.at),
                        .text(event.reportServerID),
                        .text(event.body), .integer(dueAt),
                    ])
            }
        }
    }

    func claimWebhookDeliveries(now: Int64, leaseUntil: Int64, lease: String, limit: Int) throws(ServerError)
        -> [ClaimedDelivery]
    {
        let due = try rows(
            """
            SELECT \(SQLRecords.deliveryColumns), \(SQLRecords.hookColumns.replacingOccurrences(of: "h.id", with: "h.id AS hook_id"))
            FROM webhook_deliveries d JOIN webhooks h ON h.id = d.webhook_id
            WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until < ?) AND h.disabled_at IS NULL
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.webhook_id = d.webhook_id AND p.report_server_id = d.report_server_id
                              AND p.state = 'pending' AND p.id < d.id)
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries l WHERE l.webhook_id = d.webhook_id
                              AND l.lease_until >= ?)
            ORDER BY d.id LIMIT ?
            """, [.integer(now), .integer(now), .integer(now), .count(limit)])
        var claimed: [ClaimedDelivery] = []
        var hooks: Set<String> = []
        for row in due {
            let delivery = SQLRecords.delivery(row)
            // At most one delivery of a hook under lease.
            guard hooks.insert(delivery.webhookID).inserted else { continue }
            try run(
                "UPDATE webhook_deliveries SET lease_until = ?, lease_owner = ? WHERE id = ?",
                [.integer(leaseUntil), .text(lease), .integer(delivery.id)])
            var hook = SQLRecords.webhook(row)
            hook.id = row.text("hook_id") ?? delivery.webhookID
            claimed.append(ClaimedDelivery(delivery: delivery, webhook: hook))
        }
        return claimed
    }

    func finishWebhookDelivery(id: Int64, lease: String, _ record: WebhookAttemptRecord, at: String) throws(ServerError)
        -> Bool
    {
        let changed = try change(
            """
            UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, next_attempt_at = COALESCE(?, next_attempt_at),
                last_status = ?, last_error = ?, last_attempt_at = ?, delivered_at = CASE WHEN ? = 'delivered' THEN ? ELSE delivered_at END,
                lease_until = NULL, lease_owner = NULL
            WHERE id = ? AND lease_owner = ?
            """,
            [
                .text(record.state.rawValue), .optional(record.nextAttemptAt),
                .optional(record.status),
                .optional(record.error), .text(at), .text(record.state.rawValue), .text(at), .integer(id), .text(lease),
            ])
        guard changed > 0 else { return false }
        if let reason = record.disablesHook {
            try run(
                """
                UPDATE webhooks SET disabled_at = ?, disabled_reason = ?
                WHERE id = (SELECT webhook_id FROM webhook_deliveries WHERE id = ?) AND disabled_at IS NULL
                """, [.text(at), .text(reason), .integer(id)])
        }
        return true
    }

    func pruneWebhookDeliveries(deliveredBefore before: String, limit: Int) throws(ServerError) -> Int {
        try change(
            """
            DELETE FROM webhook_deliveries WHERE id IN (
                SELECT id FROM webhook_deliveries WHERE state = 'delivered' AND delivered_at < ? ORDER BY delivered_at LIMIT ?)
            """, [.text(before), .count(limit)])
    }

    func replayWebhookDelivery(id: Int64, dueAt: Int64) throws(ServerError) -> Bool {
        try change(
            """
            UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ?, lease_until = NULL, lease_owner = NULL
            WHERE id = ?
            """, [.integer(dueAt), .integer(id)]) > 0
    }
}
