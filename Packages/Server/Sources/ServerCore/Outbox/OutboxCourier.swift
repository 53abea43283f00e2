import Foundation
import ServerStore

/// What one outbox delivers, and how: webhook deliveries to receivers, or
/// mail to the relay. `OutboxDispatcher` runs the senders' loop the same for
/// every outbox: take one due item under a lease, deliver it, record it; make
/// items from the events recorded since when nothing is due; clear old ones
/// now and then.
protocol OutboxCourier: Sendable {
    /// One taken item.
    associatedtype Item
    /// What one sender thread keeps between items (a connection to the relay); never shared.
    associatedtype Line

    /// How the outbox is named in the log ("webhook", "mail").
    var name: String { get }
    /// Its senders, lease, poll and keeping.
    var timing: OutboxTiming { get }

    /// A sender thread's own line.
    func makeLine() -> Line
    /// Takes one due item under `lease` until `leaseUntil`, or nil when none is due.
    func claim(in session: any StorageSession, now: Date, leaseUntil: Date, lease: String) throws(ServerError) -> Item?
    /// Makes items from the events recorded since the outbox last looked, in
    /// the transactions it chooses; how much it did (0: nothing to do).
    func fanOut(in store: any ServerStorage, now: Date) throws(ServerError) -> Int
    /// What a pass of `fanOut` goes through at most: a pass that reaches it
    /// may have left a backlog, and the next follows at once.
    var fullPass: Int { get }
    /// Delivers an item and records what came of it under its lease (in a transaction of its own).
    func deliver(_ item: Item, lease: String, line: inout Line)
    /// Forgets at most `limit` items delivered before `before` (RFC 3339); how many went.
    func prune(in session: any StorageSession, deliveredBefore before: String, limit: Int) throws(ServerError) -> Int
}

/// How an outbox's senders run.
struct OutboxTiming: Sendable, Equatable {
    /// Threads sending at once; 0 leaves the outbox to other instances.
    var senders: Int
    /// Seconds an item stays with the instance that took it; after that, another may.
    var lease: TimeInterval
    /// Seconds an idle sender waits before looking again (sooner when this instance records an event).
    var poll: TimeInterval
    /// Days a delivered item is kept.
    var keepDays: Int
}

extension OutboxTiming {
    /// The delay after `attempt` failed attempts (from 1): exponential from
    /// `first`, capped at `longest`, with jitter (half of it fixed, half drawn
    /// from `random` in 0..<1), so items that failed together do not return together.
    static func backoff(afterAttempt attempt: Int, first: TimeInterval, longest: TimeInterval, random: Double)
        -> TimeInterval
    {
        let exponential = first * pow(2, Double(min(max(attempt - 1, 0), 40)))
        let capped = min(exponential, longest)
        return capped / 2 + capped / 2 * min(max(random, 0), 1)
    }
}
