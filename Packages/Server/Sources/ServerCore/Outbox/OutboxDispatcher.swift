import Foundation
import Models
import ServerHTTP
import ServerStore
import Synchronization

/// Delivers one outbox: `timing.senders` threads, each taking one due item
/// at a time under a lease, delivering it, and recording what came of it.
/// Items are delivered on threads of their own (`BackgroundThread`: below
/// the requests' priority), never on a request's, so a slow or dead
/// receiver costs the routes nothing; an instance killed
/// mid-delivery leaves the item to any instance once the lease runs out (the
/// receiver may then get it twice, under the same id).
final class OutboxDispatcher<Courier: OutboxCourier>: Sendable {
    private let store: any ServerStorage
    private let courier: Courier
    private let bell: OutboxBell
    private let log: ServerLog
    /// A full disk is said once in a while, not at every poll.
    private let diskFull: DiskFullAlarm
    /// A database out of reach is said once in a while, in the same line and count as the requests' (not by every
    /// sender at every poll, which would crowd that line out of a log that drops what comes too fast).
    private let databaseAlarm: DatabaseAlarm
    private let stopping = Atomic<Bool>(false)
    /// When (seconds since 1970) the next clearing of old items is due; the sender that takes it moves it on.
    private let nextPrune = Atomic<Int64>(0)
    /// Whether a sender is making items now.
    private let fanning = Atomic<Bool>(false)
    /// When (milliseconds since 1970) the last pass of making items ended having
    /// caught up with the events; 0 after a pass that found a backlog.
    private let caughtUpAt = Atomic<Int64>(0)
    /// The least time between two passes that each catch up: while devices
    /// keep syncing, the events of a quarter second are made into items in
    /// one pass, not one pass a sync, and the passes' reads and writes stay
    /// out of the requests' way.
    static var passGap: TimeInterval { 0.25 }

    private let running = DispatchGroup()

    init(
        store: any ServerStorage, courier: Courier, bell: OutboxBell, log: ServerLog,
        diskFull: DiskFullAlarm = DiskFullAlarm(), databaseAlarm: DatabaseAlarm = DatabaseAlarm()
    ) {
        self.diskFull = diskFull
        self.databaseAlarm = databaseAlarm
        self.store = store
        self.courier = courier
        self.bell = bell
        self.log = log
    }

    /// Starts the senders.
    func start() {
        for _ in 0..<courier.timing.senders {
            running.enter()
            BackgroundThread.start { [self] in
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

    /// One sender's loop: take a due item, deliver it, record it; wait when there is none.
    private func send() {
        var line = courier.makeLine()
        var seen = bell.count
        let timing = courier.timing
        while !stopping.load(ordering: .relaxed) {
            prune()
            // The process id first: an operator (or a test) can tell which instance holds an item.
            let lease = "\(getpid()):\(UUID().uuidString.lowercased())"
            let now = Date()
            let claimed: Courier.Item?
            do throws(ServerError) {
                claimed = try store.write { session in
                    try courier.claim(
                        in: session, now: now, leaseUntil: now.addingTimeInterval(timing.lease), lease: lease)
                }
            } catch {
                if !diskFull.noted(error, in: log) { unread("\(courier.name) deliveries", error) }
                seen = bell.wait(after: bell.count, timeout: max(timing.poll, 1))
                continue
            }
            guard let item = claimed else {
                // Nothing due: make items of the events recorded since, if any, else wait.
                let rest =
                    Double(caughtUpAt.load(ordering: .relaxed)) / 1000 + Self.passGap
                    - Date().timeIntervalSince1970
                if rest > 0 { Thread.sleep(forTimeInterval: min(rest, Self.passGap)) }
                if fanOut() > 0 { continue }
                seen = bell.wait(after: seen, timeout: timing.poll)
                continue
            }
            courier.deliver(item, lease: lease, line: &line)
        }
    }

    /// Says that `what` cannot be read now: through the database alarm when the database is out of reach.
    private func unread(_ what: String, _ error: ServerError) {
        guard error.cause == nil else { return databaseAlarm.noted(error, in: log) }
        log.note("\(what) cannot be read now: \(error.message)", level: .warn)
    }

    /// Makes items from the events recorded since, when a sender finds
    /// nothing due (after this instance's own changes ring the bell, or every
    /// `poll` for other instances'); one sender at a time. How many it made.
    private func fanOut() -> Int {
        guard !fanning.exchange(true, ordering: .acquiring) else { return 0 }
        defer { fanning.store(false, ordering: .releasing) }
        do throws(ServerError) {
            let made = try courier.fanOut(in: store, now: Date())
            caughtUpAt.store(
                made >= courier.fullPass ? 0 : Int64(Date().timeIntervalSince1970 * 1000), ordering: .relaxed)
            // The other idle senders take their share at once.
            if made > 0 { bell.ringAll() }
            return made
        } catch {
            if !diskFull.noted(error, in: log) { unread("\(courier.name) events", error) }
            return 0
        }
    }

    /// Clears items delivered more than `keepDays` ago, once an hour, a bounded number at a time.
    private func prune() {
        let now = Int64(Date().timeIntervalSince1970)
        let due = nextPrune.load(ordering: .relaxed)
        guard now >= due, nextPrune.compareExchange(expected: due, desired: now + 3600, ordering: .relaxed).exchanged
        else { return }
        let cutoff = RFC3339.string(Date().addingTimeInterval(-Double(courier.timing.keepDays) * 86_400))
        do throws(ServerError) {
            var cleared = 0
            while true {
                let gone = try store.write { session in
                    try courier.prune(in: session, deliveredBefore: cutoff, limit: 5_000)
                }
                cleared += gone
                if gone < 5_000 || stopping.load(ordering: .relaxed) { break }
            }
            if cleared > 0 {
                log.note("cleared \(cleared) \(courier.name) deliveries delivered before \(cutoff)", level: .info)
            }
        } catch {
            if !diskFull.noted(error, in: log) {
                log.note("old \(courier.name) deliveries could not be cleared: \(error.message)", level: .warn)
            }
        }
    }
}
