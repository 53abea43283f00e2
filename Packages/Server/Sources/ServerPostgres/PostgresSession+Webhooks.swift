import Foundation
import ServerSQL
import ServerStore

/// Webhooks, the outbox of their events, and deliveries. Any number of
/// instances share them: a claim takes rows no other transaction holds
/// (`FOR UPDATE SKIP LOCKED`) and leases them, and a lease is honoured by
/// every instance until it runs out.
extension PostgresSession {
    func insertWebhook(_ webhook: StoredWebhook) throws(ServerError) {
        try run(
            """
            INSERT INTO webhooks (id, url, events, secret, allow_private, created_at, disabled_at, disabled_reason, cursor,
                                  action_cursor)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, (SELECT COALESCE(MAX(change), 0) FROM report_events),
                    (SELECT COALESCE(MAX(change), 0) FROM action_events))
            """,
            [
                .text(webhook.id), .text(webhook.url), .text(WebhookEventType.text(webhook.events)),
                .text(webhook.secret),
                .flag(webhook.allowsPrivateTargets), .text(webhook.createdAt), .optional(webhook.disabledAt),
                .optional(webhook.disabledReason),
            ])
    }

    func deleteWebhook(id: String) throws(ServerError) -> Bool {
        try run("DELETE FROM webhook_deliveries WHERE webhook_id = $1", [.text(id)])
        return try !rows("DELETE FROM webhooks WHERE id = $1 RETURNING id", [.text(id)]).isEmpty
    }

    func webhooksForFanOut() throws(ServerError) -> [FanOutHook] {
        try rows(
            """
            SELECT \(SQLRecords.hookColumns), h.cursor, h.action_cursor FROM webhooks h WHERE h.disabled_at IS NULL ORDER BY h.position FOR UPDATE SKIP LOCKED
            """
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
        var rows: [DeliveryRow] = []
        for event in events {
            for hook in webhooks where hook.events.contains(event.type) {
                rows.append(
                    DeliveryRow(
                        ord: rows.count, webhook_id: hook.id, event_id: event.id, type: event.type.rawValue,
                        at: event.at,
                        report_server_id: event.reportServerID, body: event.body))
            }
        }
        guard !rows.isEmpty else { return }
        // One round trip for the whole batch: the rows as a JSON array, inserted in order (ids follow it).
        guard let data = try? JSONEncoder().encode(rows) else {
            throw ServerError.internal("the webhook events could not be encoded")
        }
        try run(
            """
            INSERT INTO webhook_deliveries (webhook_id, event_id, type, at, report_server_id, body, state, attempts, next_attempt_at)
            SELECT webhook_id, event_id, type, at, report_server_id, body, 'pending', 0, $2
            FROM json_to_recordset($1::json) AS x(ord integer, webhook_id text, event_id text, type text, at text, report_server_id text,
                                                  body text)
            ORDER BY ord
            """, [.text(String(decoding: data, as: UTF8.self)), .integer(dueAt)])
    }

    /// Due deliveries, at most one a hook, none of a hook with a delivery
    /// under lease. The first statement locks the candidates and their hooks
    /// (skipping those another sender holds); its look at leases is as of the
    /// statement's start, so a lease another sender committed since is looked
    /// for again, with the hooks held, before any is taken.
    func claimWebhookDeliveries(now: Int64, leaseUntil: Int64, lease: String, limit: Int) throws(ServerError)
        -> [ClaimedDelivery]
    {
        var passed: Set<String> = []
        var taken: [Int64] = []
        for _ in 0..<4 where taken.isEmpty {
            let candidates = try dueWebhookDeliveries(now: now, limit: limit, passing: passed)
            if candidates.isEmpty { break }
            let hooks = Array(Set(candidates.map(\.hook)))
            let busy = Set(
                try rows(
                    """
                    SELECT DISTINCT webhook_id FROM webhook_deliveries
                    WHERE webhook_id IN (SELECT json_array_elements_text($1::json)) AND lease_until >= $2
                    """, [.text(Self.list(hooks)), .integer(now)]
                ).compactMap { $0.text("webhook_id") })
            passed.formUnion(busy)
            var hooksTaken: Set<String> = []
            for candidate in candidates where !busy.contains(candidate.hook) {
                if hooksTaken.insert(candidate.hook).inserted { taken.append(candidate.id) }
            }
        }
        if !taken.isEmpty {
            try run(
                """
                UPDATE webhook_deliveries SET lease_until = $1, lease_owner = $2
                WHERE id IN (SELECT json_array_elements_text($3::json)::bigint)
                """, [.integer(leaseUntil), .text(lease), .text(Self.list(taken.map(String.init)))])
        }
        var claimed: [ClaimedDelivery] = []
        for id in taken.sorted() {
            guard
                let row = try rows(
                    """
                    SELECT \(SQLRecords.deliveryColumns), \(SQLRecords.hookColumns.replacingOccurrences(of: "h.id", with: "h.id AS hook_id"))
                    FROM webhook_deliveries d JOIN webhooks h ON h.id = d.webhook_id
                    WHERE d.id = $1
                    """, [.integer(id)]
                ).first
            else { continue }
            claimed.append(
                ClaimedDelivery(delivery: SQLRecords.delivery(row), webhook: SQLRecords.webhook(row, id: "hook_id")))
        }
        return claimed
    }

    /// Due deliveries (ids and hooks) whose hooks no sender holds as of now,
    /// locked with their hooks, passing over the hooks in `passing`.
    private func dueWebhookDeliveries(now: Int64, limit: Int, passing: Set<String>) throws(ServerError)
        -> [(id: Int64, hook: String)]
    {
        try rows(
            """
            SELECT d.id, d.webhook_id FROM webhook_deliveries d JOIN webhooks h ON h.id = d.webhook_id
            WHERE d.state = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until < $1)
              AND h.disabled_at IS NULL AND d.webhook_id NOT IN (SELECT json_array_elements_text($3::json))
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.webhook_id = d.webhook_id
                              AND p.report_server_id = d.report_server_id AND p.state = 'pending' AND p.id < d.id)
              AND NOT EXISTS (SELECT 1 FROM webhook_deliveries l WHERE l.webhook_id = d.webhook_id
                              AND l.lease_until >= $1)
            ORDER BY d.id LIMIT $2 FOR UPDATE OF d, h SKIP LOCKED
            """, [.integer(now), .count(limit), .text(Self.list(Array(passing)))]
        ).compactMap { row in
            guard let id = row.integer("id"), let hook = row.text("webhook_id") else { return nil }
            return (id, hook)
        }
    }

    func finishWebhookDelivery(id: Int64, lease: String, _ record: WebhookAttemptRecord, at: String) throws(ServerError)
        -> Bool
    {
        let changed = try rows(
            """
            UPDATE webhook_deliveries SET state = $1, attempts = attempts + 1, next_attempt_at = COALESCE($2, next_attempt_at),
                last_status = $3, last_error = $4, last_attempt_at = $5,
                delivered_at = CASE WHEN $1 = 'delivered' THEN $5 ELSE delivered_at END, lease_until = NULL, lease_owner = NULL
            WHERE id = $6 AND lease_owner = $7 RETURNING webhook_id
            """,
            [
                .text(record.state.rawValue), .optional(record.nextAttemptAt),
                .optional(record.status),
                .optional(record.error), .text(at), .integer(id), .text(lease),
            ])
        guard let hook = changed.first?.text("webhook_id") else { return false }
        if let reason = record.disablesHook {
            try run(
                "UPDATE webhooks SET disabled_at = $1, disabled_reason = $2 WHERE id = $3 AND disabled_at IS NULL",
                [.text(at), .text(reason), .text(hook)])
        }
        return true
    }

    func pruneWebhookDeliveries(deliveredBefore before: String, limit: Int) throws(ServerError) -> Int {
        try rows(
            """
            DELETE FROM webhook_deliveries WHERE id IN (
                SELECT id FROM webhook_deliveries WHERE state = 'delivered' AND delivered_at < $1 ORDER BY delivered_at LIMIT $2
                FOR UPDATE SKIP LOCKED)
            RETURNING id
            """, [.text(before), .count(limit)]
        ).count
    }

    func replayWebhookDelivery(id: Int64, dueAt: Int64) throws(ServerError) -> Bool {
        try !rows(
            """
            UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = $1, lease_until = NULL, lease_owner = NULL
            WHERE id = $2 RETURNING id
            """, [.integer(dueAt), .integer(id)]
        ).isEmpty
    }
}

/// One delivery as `enqueueWebhookEvents` hands the batch to PostgreSQL.
private struct DeliveryRow: Encodable {
    var ord: Int
    var webhook_id: String
    var event_id: String
    var type: String
    var at: String
    var report_server_id: String
    var body: String
}
