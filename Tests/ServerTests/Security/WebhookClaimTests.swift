import Foundation
import Models
import ServerPostgres
import ServerSQLite
import ServerStore
import Synchronization
import Testing
import TestSupport

/// Many senders taking one hook's deliveries at once, straight on each store:
/// a hook never has two deliveries under lease, so a receiver never gets two
/// posts of one hook at a time, however the senders' claims interleave.
@Suite("Webhook claims: one delivery of a hook at a time", .serialized, .timeLimit(.minutes(3)))
struct WebhookClaimTests {
    @Test("six senders claiming and finishing 120 deliveries of one hook never hold two at once, on either store")
    func oneAtATime() async throws {
        let folder = TemporaryDirectory()
        let sqlite = try SQLiteServerStorage.open(
            path: folder.url.appendingPathComponent("server.db").path,
            settings: StorageOpener.Settings(connections: 4, uploadDirectory: nil))
        let postgres = try PostgresServerStorage.open(
            url: try ServerDatabases.freshPostgres(),
            settings: StorageOpener.Settings(connections: 8, uploadDirectory: nil))
        for (name, opened) in [("SQLite", sqlite), ("PostgreSQL", postgres)] {
            defer { opened.removeTemporaryUploads() }
            // The senders block: on threads of their own, not on the tests' shared ones.
            let store = opened.store
            let most = try await OwnThread.run { try Self.race(store, deliveries: 120, senders: 6) }
            #expect(most.delivered == 120, "\(name): \(most.delivered) of 120 delivered")
            #expect(most.held == 1, "\(name): \(most.held) deliveries of one hook were under lease at once")
        }
    }

    /// Runs `senders` threads claiming and finishing deliveries of one hook
    /// until none is left; how many were delivered and the most held at once.
    private static func race(_ store: any ServerStorage, deliveries: Int, senders: Int) throws -> (
        delivered: Int, held: Int
    ) {
        let now = RFC3339.string(Date())
        let hook = StoredWebhook(
            id: "hook-1", url: "http://receiver.invalid/hook", events: [.reportAccepted], secret: "s",
            allowsPrivateTargets: false, createdAt: now)
        try store.write { session in
            try session.insertWebhook(hook)
            let events = (0..<deliveries).map { index in
                WebhookEvent(
                    id: "event-\(index)", type: .reportAccepted, at: now, reportServerID: "report-\(index)", body: "{}")
            }
            try session.enqueueWebhookEvents(events, to: [(id: hook.id, events: [.reportAccepted])], dueAt: 0)
        }
        let held = Atomic<Int>(0)
        let most = Atomic<Int>(0)
        let delivered = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        for sender in 0..<senders {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                var idle = 0
                while idle < 20 {
                    let lease = "sender-\(sender)-\(UUID().uuidString)"
                    let time = Int64(Date().timeIntervalSince1970 * 1000)
                    do {
                        let claimed = try store.write { session in
                            try session.claimWebhookDeliveries(
                                now: time, leaseUntil: time + 60_000, lease: lease, limit: 1)
                        }
                        guard let item = claimed.first else {
                            idle += 1
                            usleep(2_000)
                            continue
                        }
                        idle = 0
                        let now = held.add(1, ordering: .sequentiallyConsistent).newValue
                        most.max(now, ordering: .sequentiallyConsistent)
                        usleep(1_000)
                        held.subtract(1, ordering: .sequentiallyConsistent)
                        let record = WebhookAttemptRecord(
                            state: .delivered, nextAttemptAt: nil, status: 200, error: nil)
                        let kept = try store.write { session in
                            try session.finishWebhookDelivery(
                                id: item.delivery.id, lease: lease, record, at: RFC3339.string(Date()))
                        }
                        if kept { delivered.add(1, ordering: .relaxed) }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                        return
                    }
                }
            }
        }
        group.wait()
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 }.prefix(3))")
        return (delivered.load(ordering: .relaxed), most.load(ordering: .relaxed))
    }
}
