import ServerStore

/// Webhooks and their deliveries as rows hold them.
extension SQLRecords {
    /// The columns a webhook is read from (table `h`).
    public static let hookColumns =
        "h.id, h.url, h.events, h.secret, h.allow_private, h.created_at, h.disabled_at, h.disabled_reason"

    /// The columns a delivery is read from (table `d`).
    public static let deliveryColumns = """
        d.id, d.webhook_id, d.event_id, d.type, d.at, d.report_server_id, d.body, d.state, d.attempts,
        d.next_attempt_at, d.last_status, d.last_error, d.last_attempt_at, d.delivered_at
        """

    /// The webhook in `row`, its id read from `column`.
    public static func webhook(_ row: some SQLRow, id column: String = "id") -> StoredWebhook {
        StoredWebhook(
            id: row.text(column) ?? "", url: row.text("url") ?? "",
            events: WebhookEventType.list(row.text("events") ?? ""),
            secret: row.text("secret") ?? "", allowsPrivateTargets: row.flag("allow_private") ?? false,
            createdAt: row.text("created_at") ?? "", disabledAt: row.text("disabled_at"),
            disabledReason: row.text("disabled_reason"))
    }

    /// The delivery in `row`, with the event it carries.
    public static func delivery(_ row: some SQLRow) -> WebhookDelivery {
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
}
