import ServerStore

/// Webhooks and their deliveries: the reads and the plain updates. How a
/// claim takes deliveries, and how a store counts what it changed, is each
/// store's own.
extension SQLStatements {
    public func webhooks() throws(ServerError) -> [StoredWebhook] {
        try rows("SELECT \(SQLRecords.hookColumns) FROM webhooks h ORDER BY h.position").map { SQLRecords.webhook($0) }
    }

    public func setWebhookDisabled(id: String, at: String?, reason: String?) throws(ServerError) {
        try run(
            "UPDATE webhooks SET disabled_at = ?, disabled_reason = ? WHERE id = ?",
            [.optional(at), .optional(reason), .text(id)])
    }

    public func pendingWebhookDeliveries(webhookID: String) throws(ServerError) -> Int {
        Int(
            try firstRow(
                "SELECT count(*) AS waiting FROM webhook_deliveries WHERE webhook_id = ? AND state = 'pending'",
                [.text(webhookID)]
            )?.integer("waiting") ?? 0)
    }

    public func setWebhookCursor(id: String, change: Int64) throws(ServerError) {
        try run("UPDATE webhooks SET cursor = ? WHERE id = ?", [.integer(change), .text(id)])
    }

    public func setWebhookActionCursor(id: String, change: Int64) throws(ServerError) {
        try run("UPDATE webhooks SET action_cursor = ? WHERE id = ?", [.integer(change), .text(id)])
    }

    public func recordActionEvent(_ event: StoredActionEvent) throws(ServerError) {
        try run(
            "INSERT INTO action_events (change, action_id, type, at, body) VALUES (?, ?, ?, ?, ?)",
            [
                .integer(event.change), .text(event.actionID), .text(event.type.rawValue), .text(event.at),
                .text(event.actionJSON),
            ])
    }

    public func actionEvents(afterChange: Int64, limit: Int) throws(ServerError) -> [StoredActionEvent] {
        try rows(
            "SELECT change, action_id, type, at, body FROM action_events WHERE change > ? ORDER BY change LIMIT ?",
            [.integer(afterChange), .count(limit)]
        ).map { row in
            StoredActionEvent(
                change: row.integer("change") ?? 0, actionID: row.text("action_id") ?? "",
                type: row.text("type").flatMap(WebhookEventType.init(rawValue:)) ?? .actionUpdated,
                at: row.text("at") ?? "", actionJSON: row.text("body") ?? "{}")
        }
    }

    public func webhookDeliveries(webhookID: String?, failedOnly: Bool, limit: Int) throws(ServerError)
        -> [WebhookDelivery]
    {
        var conditions: [String] = []
        var values: [SQLParameter] = []
        if let webhookID {
            conditions.append("d.webhook_id = ?")
            values.append(.text(webhookID))
        }
        if failedOnly { conditions.append("d.state = 'failed'") }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        return try rows(
            "SELECT \(SQLRecords.deliveryColumns) FROM webhook_deliveries d \(filter) ORDER BY d.id DESC LIMIT ?",
            values + [.count(limit)]
        ).map { SQLRecords.delivery($0) }
    }

    public func webhookDelivery(id: Int64) throws(ServerError) -> WebhookDelivery? {
        try firstRow("SELECT \(SQLRecords.deliveryColumns) FROM webhook_deliveries d WHERE d.id = ?", [.integer(id)])
            .map { SQLRecords.delivery($0) }
    }
}
