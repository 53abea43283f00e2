import Foundation
import ServerStore
import SQLite

/// Webhooks, the outbox of their events, and deliveries. One connection
/// serves the process, so a claim's read and lease are one step; the admin
/// command's connection in another process is ordered by SQLite's locks.
extension SQLiteSession {
    private static let hookColumns =
        "h.id, h.url, h.events, h.secret, h.allow_private, h.created_at, h.disabled_at, h.disabled_reason"
    private static let deliveryColumns = """
        d.id, d.webhook_id, d.event_id, d.type, d.at, d.report_server_id, d.body, d.state, d.attempts, d.next_attempt_at, d.last_status, d.last_error, d.last_attempt_at, d.delivered_at
        """

    private static func hook(_ row: Row) -> StoredWebhook {
        StoredWebhook(
            id: row.text("id") ?? "", url: row.text("url") ?? "",
            events: WebhookEventType.list(row.text("events") ?? ""),
            secret: row.text("secret") ?? "", allowsPrivateTargets: (row.integer("allow_private") ?? 0) != 0,
            createdAt: row.text("created_at") ?? "", disabledAt: row.text("disabled_at"),
            disabledReason: row.text("disabled_reason"))
    }

    private static func delivery(_ row: Row) -> WebhookDelivery {
        let event = WebhookEvent(
            id: row.text("event_id") ?? "",
            type: row.text("type").flatMap(WebhookEventType.init(rawValue:)) ?? .reportAccepted,
            at: row.text("at") ?? "", reportServerID: row.text("report_server_id") ?? "", body: row.text("body") ?? "")
        return WebhookDelivery(
            id: row.integer("id") ?? 0, webhookID: row.text("webhook_id") ?? "", event: event,
            state: row.text("state").flatMap(WebhookDeliveryState.init(rawValue:)) ?? .pending,
            attempts: Int(row.integer("attempts") ?? 0), nextAttemptAt: row.integer("next_attempt_at") ?? 0,
            lastStatus: row.integer("last_status").map { Int($0) }, lastError: row.text("last_error"),
            lastAttemptAt: row.text("last_attempt_at"), deliveredAt: row.text("delivered_at"))
    }

    func webhooks() throws(ServerError) -> [StoredWebhook] {
        try db.query("SELECT \(Self.hookColumns) FROM webhooks h ORDER BY h.position").map(Self.hook)
    }

    func insertWebhook(_ webhook: StoredWebhook) throws(ServerError) {
        try db.update(
            """
            INSERT INTO webhooks (id, position, url, events, secret, allow_private, created_at, disabled_at, disabled_reason, cursor)
            VALUES (?, (SELECT COALESCE(MAX(position), 0) + 1 FROM webhooks), ?, ?, ?, ?, ?, ?, ?,
                    (SELECT COALESCE(MAX(change), 0) FROM report_events))
            """,
            [
                .text(webhook.id), .text(webhook.url), .text(WebhookEventType.text(webhook.events)),
                .text(webhook.secret),
                .integer(webhook.allowsPrivateTargets ? 1 : 0), .text(webhook.createdAt), .optional(webhook.disabledAt),
                .optional(webhook.disabledReason),
            ])
    }

    func deleteWebhook(id: String) throws(ServerError) -> Bool {
        try db.update("DELETE FROM webhook_deliveries WHERE webhook_id = ?", [.text(id)])
        return try db.changing("DELETE FROM webhooks WHERE id = ?", [.text(id)]) > 0
    }

    func setWebhookDisabled(id: String, at: String?, reason: String?) throws(ServerError) {
        try db.update(
            "UPDATE webhooks SET disabled_at = ?, disabled_reason = ? WHERE id = ?",
            [.optional(at), .optional(reason), .text(id)])
    }

    func webhooksForFanOut() throws(ServerError) -> [(hook: StoredWebhook, cursor: Int64)] {
        try db.query(
            "SELECT \(Self.hookColumns), h.cursor FROM webhooks h WHERE h.disabled_at IS NULL ORDER BY h.position"
        ).map { row in
            (Self.hook(row), row.integer("cursor") ?? 0)
        }
    }

    func pendingWebhookDeliveries(webhookID: String) throws(ServerError) -> Int {
        Int(
            try db.query(
                "SELECT count(*) AS waiting FROM webhook_deliveries WHERE webhook_id = ? AND state = 'pending'",
                [.text(webhookID)]
            ).first?.integer("waiting") ?? 0)
    }

    func setWebhookCursor(id: String, change: Int64) throws(ServerError) {
        try db.update("UPDATE webhooks SET cursor = ? WHERE id = ?", [.integer(change), .text(id)])
    }

    func enqueueWebhookEvents(
        _ events: [WebhookEvent], to webhooks: [(id: String, events: [WebhookEventType])],
        dueAt: Int64
    ) throws(ServerError) {
        for event in events {
            for hook in webhooks where hook.events.contains(event.type) {
                try db.update(
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
        let rows = try db.query(
            """
            SELECT \(Self.deliveryColumns), \(Self.hookColumns.replacingOccurrences(of: "h.id", with: "h.id AS hook_id"))
            FROM webhook_deliveries d JOIN webhooks h ON h.id = d.webhook_id
            WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until < ?) AND h.disabled_at IS NULL
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.webhook_id = d.webhook_id AND p.report_server_id = d.report_server_id
                              AND p.state = 'pending' AND p.id < d.id)
            ORDER BY d.id LIMIT ?
            """, [.integer(now), .integer(now), .integer(Int64(limit))])
        var claimed: [ClaimedDelivery] = []
        for row in rows {
            let delivery = Self.delivery(row)
            try db.update(
                "UPDATE webhook_deliveries SET lease_until = ?, lease_owner = ? WHERE id = ?",
                [.integer(leaseUntil), .text(lease), .integer(delivery.id)])
            var hook = Self.hook(row)
            hook.id = row.text("hook_id") ?? delivery.webhookID
            claimed.append(ClaimedDelivery(delivery: delivery, webhook: hook))
        }
        return claimed
    }

    func finishWebhookDelivery(id: Int64, lease: String, _ record: WebhookAttemptRecord, at: String) throws(ServerError)
        -> Bool
    {
        let changed = try db.changing(
            """
            UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, next_attempt_at = COALESCE(?, next_attempt_at),
                last_status = ?, last_error = ?, last_attempt_at = ?, delivered_at = CASE WHEN ? = 'delivered' THEN ? ELSE delivered_at END,
                lease_until = NULL, lease_owner = NULL
            WHERE id = ? AND lease_owner = ?
            """,
            [
                .text(record.state.rawValue), record.nextAttemptAt.map { SQLValue.integer($0) } ?? .null,
                .optional(record.status),
                .optional(record.error), .text(at), .text(record.state.rawValue), .text(at), .integer(id), .text(lease),
            ])
        guard changed > 0 else { return false }
        if let reason = record.disablesHook {
            try db.update(
                """
                UPDATE webhooks SET disabled_at = ?, disabled_reason = ?
                WHERE id = (SELECT webhook_id FROM webhook_deliveries WHERE id = ?) AND disabled_at IS NULL
                """, [.text(at), .text(reason), .integer(id)])
        }
        return true
    }

    func webhookDeliveries(webhookID: String?, failedOnly: Bool, limit: Int) throws(ServerError) -> [WebhookDelivery] {
        var conditions: [String] = []
        var values: [SQLValue] = []
        if let webhookID {
            conditions.append("d.webhook_id = ?")
            values.append(.text(webhookID))
        }
        if failedOnly { conditions.append("d.state = 'failed'") }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try db.query(
            """
            SELECT \(Self.deliveryColumns) FROM webhook_deliveries d \(filter) ORDER BY d.id DESC LIMIT ?
            """, values + [.integer(Int64(limit))]
        ).map(Self.delivery)
    }

    func webhookDelivery(id: Int64) throws(ServerError) -> WebhookDelivery? {
        try db.query(
            """
            SELECT \(Self.deliveryColumns) FROM webhook_deliveries d WHERE d.id = ?
            """, [.integer(id)]
        ).first.map(Self.delivery)
    }

    func pruneWebhookDeliveries(deliveredBefore before: String, limit: Int) throws(ServerError) -> Int {
        try db.changing(
            """
            DELETE FROM webhook_deliveries WHERE id IN (
                SELECT id FROM webhook_deliveries WHERE state = 'delivered' AND delivered_at < ? ORDER BY delivered_at LIMIT ?)
            """, [.text(before), .integer(Int64(limit))])
    }

    func replayWebhookDelivery(id: Int64, dueAt: Int64) throws(ServerError) -> Bool {
        try db.changing(
            """
            UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = ?, lease_until = NULL, lease_owner = NULL
            WHERE id = ?
            """, [.integer(dueAt), .integer(id)]) > 0
    }
}
