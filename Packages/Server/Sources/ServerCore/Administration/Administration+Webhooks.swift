import FieldTypes
import Foundation
import Models
import ServerStore

/// Webhooks: the receivers events are posted to, and their deliveries.
extension Administration {
    /// The shortest secret a hook may sign with.
    static let shortestSecret = 16

    /// Adds a hook posting `events` (all of them when nil) to `url`, signed with `secret`.
    func addWebhook(
        url: String, events names: [String]?, secret: String, allowingPrivate: Bool,
        by actor: AdminActor
    ) throws(ServerError) -> StoredWebhook {
        let target = try WebhookTarget(url)
        try target.checkWritten(allowingPrivate: allowingPrivate)
        var events: [WebhookEventType] = []
        for name in names ?? WebhookEventType.allCases.map(\.rawValue) {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let type = WebhookEventType(rawValue: trimmed) else {
                throw ServerError.badRequest(
                    "'\(OneLine.escaped(String(trimmed.prefix(40))))' is not an event; give any of "
                        + WebhookEventType.allCases.map(\.rawValue).joined(separator: ", "))
            }
            if !events.contains(type) { events.append(type) }
        }
        guard !events.isEmpty else { throw ServerError.badRequest("a webhook needs at least one event") }
        guard secret.utf8.count >= Self.shortestSecret else {
            throw ServerError.badRequest(
                "the secret is shorter than \(Self.shortestSecret) bytes; make one with 'openssl rand -hex 32 > FILE'")
        }
        guard secret.utf8.count <= 1024 else { throw ServerError.badRequest("the secret is longer than 1024 bytes") }
        let hook = StoredWebhook(
            id: "wh_" + Hex.encode(PasswordHasher.randomBytes(6)), url: target.url, events: events.sorted(),
            secret: secret, allowsPrivateTargets: allowingPrivate, createdAt: RFC3339.string(now()))
        return try change(by: actor) { session, events throws(ServerError) -> StoredWebhook in
            try session.insertWebhook(hook)
            try events.record(
                "webhook.added", hook.id,
                [
                    "url": .string(hook.url), "events": .array(hook.events.map { .string($0.rawValue) }),
                    "allow_private_targets": .bool(allowingPrivate),
                ])
            return hook
        }
    }

    /// Every hook, in the order they were added.
    func webhooks() throws(ServerError) -> [StoredWebhook] {
        try store.read { try $0.webhooks() }
    }

    /// Removes a hook and its deliveries.
    func removeWebhook(id: String, by actor: AdminActor) throws(ServerError) -> StoredWebhook {
        try change(by: actor) { session, events throws(ServerError) -> StoredWebhook in
            guard let hook = try session.webhooks().first(where: { $0.id == id }) else { throw Self.noWebhook(id) }
            _ = try session.deleteWebhook(id: id)
            try events.record("webhook.removed", id, ["url": .string(hook.url)])
            return hook
        }
    }

    /// Enables a hook a receiver's 410 disabled: its pending deliveries resume in order.
    func enableWebhook(id: String, by actor: AdminActor) throws(ServerError) -> StoredWebhook {
        try change(by: actor) { session, events throws(ServerError) -> StoredWebhook in
            guard var hook = try session.webhooks().first(where: { $0.id == id }) else { throw Self.noWebhook(id) }
            try session.setWebhookDisabled(id: id, at: nil, reason: nil)
            try events.record("webhook.enabled", id)
            hook.disabledAt = nil
            hook.disabledReason = nil
            return hook
        }
    }

    /// The newest deliveries, failed ones only when asked.
    func webhookDeliveries(webhookID: String?, failedOnly: Bool, limit: Int) throws(ServerError) -> [WebhookDelivery] {
        try store.read { session throws(ServerError) -> [WebhookDelivery] in
            if let webhookID, try !session.webhooks().contains(where: { $0.id == webhookID }) {
                throw Self.noWebhook(webhookID)
            }
            return try session.webhookDeliveries(webhookID: webhookID, failedOnly: failedOnly, limit: limit)
        }
    }

    /// Sends a delivery again, with the same body and event id: it becomes
    /// pending with no attempts, due now (after earlier pending events of its report).
    func replayWebhookDelivery(_ text: String, by actor: AdminActor) throws(ServerError) -> WebhookDelivery {
        guard let id = Int64(text), id > 0 else {
            throw ServerError.badRequest("'\(OneLine.escaped(String(text.prefix(40))))' is not a delivery number")
        }
        return try change(by: actor) { session, events throws(ServerError) -> WebhookDelivery in
            guard try session.replayWebhookDelivery(id: id, dueAt: WebhookOutbox.milliseconds(now())),
                let delivery = try session.webhookDelivery(id: id)
            else {
                throw ServerError.notFound("no webhook delivery \(id); 'admin webhook deliveries' lists them")
            }
            try events.record(
                "webhook.replayed", String(id),
                ["webhook": .string(delivery.webhookID), "event_id": .string(delivery.eventID)])
            return delivery
        }
    }

    private static func noWebhook(_ id: String) -> ServerError {
        ServerError.notFound("no webhook '\(OneLine.escaped(String(id.prefix(40))))'; 'admin webhook list' lists them")
    }
}

extension AdminWire {
    static func webhook(_ hook: StoredWebhook) -> JSONValue {
        [
            "id": .string(hook.id), "url": .string(hook.url),
            "events": .array(hook.events.map { .string($0.rawValue) }),
            "allow_private_targets": .bool(hook.allowsPrivateTargets), "created_at": .string(hook.createdAt),
            "state": .string(hook.disabledAt == nil ? "enabled" : "disabled"),
            "disabled_at": hook.disabledAt.map { .string($0) } ?? .null,
            "disabled_reason": hook.disabledReason.map { .string($0) } ?? .null,
        ]
    }

    static func delivery(_ delivery: WebhookDelivery) -> JSONValue {
        let next = Date(timeIntervalSince1970: Double(delivery.nextAttemptAt) / 1000)
        return [
            "id": .integer(delivery.id), "webhook_id": .string(delivery.webhookID),
            "event_id": .string(delivery.eventID),
            "event_type": .string(delivery.eventType), "event_at": .string(delivery.eventAt),
            "report_server_id": .string(delivery.reportServerID), "state": .string(delivery.state.rawValue),
            "attempts": .integer(Int64(delivery.attempts)),
            "next_attempt_at": delivery.state == .pending ? .string(RFC3339.string(next)) : .null,
            "last_status": delivery.lastStatus.map { .integer(Int64($0)) } ?? .null,
            "last_error": delivery.lastError.map { .string($0) } ?? .null,
            "last_attempt_at": delivery.lastAttemptAt.map { .string($0) } ?? .null,
            "delivered_at": delivery.deliveredAt.map { .string($0) } ?? .null,
        ]
    }
}
