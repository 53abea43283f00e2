import Foundation
import Models
import Networking
import ServerHTTP
import ServerStore
import Synchronization

/// Delivers the outbox: `senders` threads, each taking one due delivery at
/// a time under a lease (`claimWebhookDeliveries`), posting its event
/// signed, and recording what came of it. A hook has at most one delivery
/// under lease at a time, whichever instance holds it, so a slow receiver
/// holds one sender and the other hooks' deliveries are not queued behind it. Deliveries run on threads of
/// their own, never on a request's, so a slow or dead receiver costs the
/// routes nothing; an instance killed mid-delivery leaves the delivery to
/// any instance once the lease runs out (the receiver may then get the
/// event twice, with the same `id`).
final class WebhookDispatcher: Sendable {
    private let store: any ServerStorage
    private let settings: WebhookSettings
    private let bell: WebhookBell
    private let log: ServerLog
    private let metrics: ServerMetrics
    /// A full disk is said once in a while, not at every poll.
    private let diskFull: DiskFullAlarm
    /// A database out of reach is said once in a while, in the same line and count as the requests' (not by every
    /// sender at every poll, which would crowd that line out of a log that drops what comes too fast).
    private let databaseAlarm: DatabaseAlarm
    private let stopping = Atomic<Bool>(false)
    /// When (seconds since 1970) the next clearing of old deliveries is due; the sender that takes it moves it on.
    private let nextPrune = Atomic<Int64>(0)
    /// Whether a sender is making deliveries now.
    private let fanning = Atomic<Bool>(false)
    private let running = DispatchGroup()

    init(
        store: any ServerStorage, settings: WebhookSettings, bell: WebhookBell, log: ServerLog, metrics: ServerMetrics,
        diskFull: DiskFullAlarm = DiskFullAlarm(), databaseAlarm: DatabaseAlarm = DatabaseAlarm()
    ) {
        self.diskFull = diskFull
        self.databaseAlarm = databaseAlarm
        self.metrics = metrics
        self.store = store
        self.settings = settings
        self.bell = bell
        self.log = log
    }

    /// Starts the senders.
    func start() {
        for _ in 0..<settings.senders {
            running.enter()
            Thread.detachNewThread { [self] in
                send()
                running.leave()
            }
        }
    }

    /// Asks the senders to stop and waits up to `grace` seconds for attempts in flight.
    func stop(grace: TimeInterval) {
        stopping.store(true, ordering: .relaxed)
        bell.ringAll()
        _ = running.wait(timeout: .now() + grace)
    }

    /// One sender's loop: take a due delivery, attempt it, record it; wait when there is none.
    private func send() {
        var seen = bell.count
        while !stopping.load(ordering: .relaxed) {
            prune()
            // The process id first: an operator (or a test) can tell which instance holds a delivery.
            let lease = "\(getpid()):\(UUID().uuidString.lowercased())"
            let now = Date()
            let claimed: [ClaimedDelivery]
            do throws(ServerError) {
                claimed = try store.write { session in
                    try session.claimWebhookDeliveries(
                        now: WebhookOutbox.milliseconds(now),
                        leaseUntil: WebhookOutbox.milliseconds(now.addingTimeInterval(settings.lease)),
                        lease: lease, limit: 1)
                }
            } catch {
                if !diskFull.noted(error, in: log) { unread("webhook deliveries", error) }
                seen = bell.wait(after: bell.count, timeout: max(settings.poll, 1))
                continue
            }
            guard let delivery = claimed.first else {
                // Nothing due: make deliveries of the events recorded since, if any, else wait.
                if fanOut() > 0 { continue }
                seen = bell.wait(after: seen, timeout: settings.poll)
                continue
            }
            attempt(delivery, lease: lease)
        }
    }

    /// Says that `what` cannot be read now: through the database alarm when the database is out of reach.
    private func unread(_ what: String, _ error: ServerError) {
        guard error.cause == nil else { return databaseAlarm.noted(error, in: log) }
        log.note("\(what) cannot be read now: \(error.message)", level: .warn)
    }

    /// Makes deliveries from the events recorded since each hook's cursor,
    /// when a sender finds nothing due (after this instance's own changes
    /// ring the bell, or every `poll` for other instances'); one sender at a
    /// time. How many it made.
    private func fanOut() -> Int {
        guard !fanning.exchange(true, ordering: .acquiring) else { return 0 }
        defer { fanning.store(false, ordering: .releasing) }
        do throws(ServerError) {
            let made = try store.write { session in try WebhookOutbox.fanOut(in: session, now: Date()) }
            // The other idle senders take their share at once.
            if made > 0 { bell.ringAll() }
            return made
        } catch {
            if !diskFull.noted(error, in: log) { unread("webhook events", error) }
            return 0
        }
    }

    /// Clears deliveries delivered more than `keepDays` ago, once an hour, a bounded number at a time.
    private func prune() {
        let now = Int64(Date().timeIntervalSince1970)
        let due = nextPrune.load(ordering: .relaxed)
        guard now >= due, nextPrune.compareExchange(expected: due, desired: now + 3600, ordering: .relaxed).exchanged
        else { return }
        let cutoff = RFC3339.string(Date().addingTimeInterval(-Double(settings.keepDays) * 86_400))
        do throws(ServerError) {
            var cleared = 0
            while true {
                let gone = try store.write { session in
                    try session.pruneWebhookDeliveries(deliveredBefore: cutoff, limit: 5_000)
                }
                cleared += gone
                if gone < 5_000 || stopping.load(ordering: .relaxed) { break }
            }
            if cleared > 0 {
                log.note("cleared \(cleared) webhook deliveries delivered before \(cutoff)", level: .info)
            }
        } catch {
            if !diskFull.noted(error, in: log) {
                log.note("old webhook deliveries could not be cleared: \(error.message)", level: .warn)
            }
        }
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
