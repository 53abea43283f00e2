import Foundation

/// Limits password guessing without letting anyone lock an account out.
///
/// Attempts are counted per client address and user name (10 failures a
/// minute), and per address over all names (100 a minute, against spraying
/// one password over many accounts). An attempt is reserved before its
/// password is checked, so concurrent guesses cannot all slip past the
/// count: when the attempts in flight could take a key past its limit, the
/// next one waits for them to end (a right password frees its place, a
/// wrong one counts), then is checked or refused. Passing a limit locks that key for one minute, then two, four, up
/// to sixteen; a success clears the user's key. A user locked out from one
/// address still signs in from another. The table holds at most
/// `capacity` keys: entries idle for an hour go first, then the oldest.
final class LoginThrottle: @unchecked Sendable {
    private struct Key: Hashable { var address: String; var username: String? }
    private struct Entry {
        var windowStart: Date
        var failures = 0
        var inFlight = 0
        var lockedUntil: Date?
        var lockouts = 0
        var lastSeen: Date
    }

    // `entries` is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var entries: [Key: Entry] = [:]
    private let capacity: Int
    private let longestWait: TimeInterval
    /// Failures allowed per address and user name in one window.
    static let perUser = 10
    /// Failures allowed per address, over every user name, in one window.
    static let perAddress = 100
    /// Seconds over which failures are counted (`--sign-in-window`).
    let window: TimeInterval
    /// The first lockout; each one after doubles it.
    static let firstLockout: TimeInterval = 60
    /// The longest lockout, reached after repeated ones.
    static let longestLockout: TimeInterval = 16 * 60

    init(capacity: Int = 10_000, longestWait: TimeInterval = 5, window: TimeInterval = 60) {
        self.window = window
        self.capacity = capacity
        self.longestWait = longestWait
    }

    /// Reserves an attempt: nil when the password may be checked (then call
    /// `finish`), else the seconds to wait.
    func begin(address: String, username: String, now: Date) -> Int? {
        let keys = [
            (Key(address: address, username: username), Self.perUser),
            (Key(address: address, username: nil), Self.perAddress),
        ]
        let deadline = Date().addingTimeInterval(longestWait)
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch reserve(keys, now: max(now, Date())) {
            case .reserved: return nil
            case .refused(let wait): return wait
            case .full:
                if !condition.wait(until: deadline) { return 1 }
            }
        }
    }

    private enum Reservation { case reserved, refused(Int), full }

    /// One try at reserving every key; `entries` must be locked.
    private func reserve(_ keys: [(Key, Int)], now: Date) -> Reservation {
        do {
            var updated: [Key: Entry] = [:]
            for (key, limit) in keys {
                var entry = entries[key] ?? Entry(windowStart: now, lastSeen: now)
                entry.lastSeen = now
                if let until = entry.lockedUntil, until > now {
                    return .refused(Self.seconds(until.timeIntervalSince(now)))
                }
                if entry.lockedUntil != nil || now.timeIntervalSince(entry.windowStart) >= window {
                    entry.lockedUntil = nil
                    entry.windowStart = now
                    entry.failures = 0
                }
                if entry.failures >= limit {
                    let lockout = min(Self.firstLockout * pow(2, Double(entry.lockouts)), Self.longestLockout)
                    entry.lockouts += 1
                    entry.lockedUntil = now.addingTimeInterval(lockout)
                    insert(entry, for: key, into: &entries, now: now)
                    return .refused(Self.seconds(lockout))
                }
                if entry.failures + entry.inFlight >= limit { return .full }
                entry.inFlight += 1
                updated[key] = entry
            }
            for (key, entry) in updated { insert(entry, for: key, into: &entries, now: now) }
            return .reserved
        }
    }

    /// How an attempt `begin` allowed ended.
    enum Outcome { case succeeded, failed, notChecked }

    /// Ends an attempt `begin` allowed; only a wrong password counts as a failure.
    func finish(address: String, username: String, outcome: Outcome, now: Date) {
        let succeeded = outcome == .succeeded
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        for key in [Key(address: address, username: username), Key(address: address, username: nil)] {
            guard var entry = entries[key] else { continue }
            entry.inFlight = max(0, entry.inFlight - 1)
            if succeeded && key.username != nil {
                entry.failures = 0
                entry.lockouts = 0
            }
            if succeeded && key.username != nil && entry.inFlight == 0 {
                entries.removeValue(forKey: key)
                continue
            }
            if outcome == .failed { entry.failures += 1 }
            entries[key] = entry
        }
    }

    /// How many keys the table holds.
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return entries.count
    }

    private func insert(_ entry: Entry, for key: Key, into all: inout [Key: Entry], now: Date) {
        if all[key] == nil && all.count >= capacity {
            all = all.filter { now.timeIntervalSince($0.value.lastSeen) < 3600 || $0.value.inFlight > 0 }
            if all.count >= capacity, let oldest = all.min(by: { $0.value.lastSeen < $1.value.lastSeen })?.key {
                all.removeValue(forKey: oldest)
            }
        }
        all[key] = entry
    }

    private static func seconds(_ interval: TimeInterval) -> Int { max(1, Int(interval.rounded(.up))) }
}
