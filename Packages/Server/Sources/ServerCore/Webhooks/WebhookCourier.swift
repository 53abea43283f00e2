import Foundation
import Models
import Networking
import ServerHTTP
import ServerStore

/// The webhook outbox's courier (`OutboxDispatcher` runs its senders): it
/// takes one due delivery at a time (`claimWebhookDeliveries`), posts its
/// event signed, and records what came of it. A hook has at most one
/// delivery under lease at a time, whichever instance holds it, so a slow
/// receiver holds one sender and the other hooks' deliveries are not queued
/// behind it.
struct WebhookCourier: OutboxCourier {
    let store: any ServerStorage
    let settings: WebhookSettings
    let log: ServerLog
    let metrics: ServerMetrics
    let diskFull: DiskFullAlarm

    var name: String { "webhook" }

    var timing: OutboxTiming {
        OutboxTiming(
            senders: settings.senders, lease: settings.lease, poll: settings.poll, keepDays: settings.keepDays)
    }

    func makeLine() {}

    func claim(in session: any StorageSession, now: Date, leaseUntil: Date, lease: String) throws(ServerError)
        -> ClaimedDelivery?
    {
        try session.claimWebhookDeliveries(
            now: WebhookOutbox.milliseconds(now), leaseUntil: WebhookOutbox.milliseconds(leaseUntil), lease: lease,
            limit: 1
        ).first
    }

    var fullPass: Int { WebhookOutbox.window }

    func fanOut(in store: any ServerStorage, now: Date) throws(ServerError) -> Int {
        try store.write { session in try WebhookOutbox.fanOut(in: session, now: now) }
    }

    func deliver(_ item: ClaimedDelivery, lease: String, line: inout Void) {
        attempt(item, lease: lease)
    }

    func prune(in session: any StorageSession, deliveredBefore before: String, limit: Int) throws(ServerError) -> Int {
        try session.pruneWebhookDeliveries(deliveredBefore: before, limit: limit)
    }

    /// Posts one delivery and records the outcome under its lease.
    private func attempt(_ claimed: ClaimedDelivery, lease: String) {
        let hook = claimed.webhook
        let delivery = claimed.delivery
        let outcome: Result<HTTPResponse, NetworkingError>
        let body = delivery.event.body
        switch target(hook) {
        case .failure(let refusal):
            outcome = .failure(NetworkingError(.unreachable, refusal.message))
        case .success(let pins):
            let time = Int64(Date().timeIntervalSince1970)
            let request = HTTPRequest(
                method: .post, url: hook.url,
                headers: [
                    (name: "Content-Type", value: "application/json"),
                    (
                        name: WebhookSignature.header,
                        value: WebhookSignature.value(secret: hook.secret, time: time, body: body)
                    ),
                    (name: "X-JQC-Event", value: delivery.eventType),
                    (name: "X-JQC-Event-Id", value: delivery.eventID),
                ], body: Data(body.utf8))
            outcome = settings.transport(pins: pins).perform(request)
        }
        let record = settings.record(outcome, made: delivery.attempts, now: Date(), random: Double.random(in: 0..<1))
        finish(delivery, lease: lease, hook: hook, record)
    }

    /// Records an attempt under its lease, counts and logs it.
    private func finish(_ delivery: WebhookDelivery, lease: String, hook: StoredWebhook, _ record: WebhookAttemptRecord)
    {
        let now = Date()
        let kept: Bool
        do throws(ServerError) {
            kept = try store.write { session in
                try session.finishWebhookDelivery(id: delivery.id, lease: lease, record, at: RFC3339.string(now))
            }
        } catch {
            // Unrecorded: the lease runs out and the delivery is attempted again (the receiver drops the duplicate by its id).
            if !diskFull.noted(error, in: log) {
                log.note("webhook delivery \(delivery.id) could not be recorded: \(error.message)", level: .warn)
            }
            return
        }
        if kept { metrics.webhookAttempted(record.state) }
        var fields: [(String, LogValue)] = [
            ("webhook", .string(hook.id)), ("delivery", .integer(Int(delivery.id))),
            ("event", .string(delivery.eventType)), ("event_id", .string(delivery.eventID)),
            ("attempt", .integer(delivery.attempts + 1)), ("outcome", .string(record.state.rawValue)),
            ("status", record.status.map { .integer($0) } ?? .null),
        ]
        if let error = record.error { fields.append(("error", .string(String(error.prefix(300))))) }
        if !kept { fields.append(("lease", .string("lost to another sender; its record counts"))) }
        log.record(record.state == .delivered ? .info : .warn, kind: "webhook", fields)
    }

    /// The pinned addresses of a hook's host, checked now.
    private func target(_ hook: StoredWebhook) -> Result<[String], WebhookTargetRefusal> {
        do throws(ServerError) {
            return try WebhookTarget(hook.url).resolve(allowingPrivate: hook.allowsPrivateTargets)
        } catch {
            return .failure(WebhookTargetRefusal(error.message))
        }
    }
}
