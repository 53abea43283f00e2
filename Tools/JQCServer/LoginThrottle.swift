import Foundation
import Synchronization

/// Limits password guessing without letting anyone lock an account out.
///
/// Attempts are counted per client address and user name (10 failures a
/// minute), and per address over all names (100 a minute, against spraying
/// one password over many accounts). An attempt is reserved before its
/// password is checked, so concurrent guesses cannot all slip past the
/// count. Passing a limit locks that key for one minute, then two, four, up
/// to sixteen; a success clears the user's key. A user locked out from one
/// address still signs in from another. The table holds at most
/// `capacity` keys: entries idle for an hour go first, then the oldest.
final class LoginThrottle: Sendable {
    private struct Key: Hashable { var address: String; var username: String? }
    private struct Entry {
        var windowStart: Date
        var failures = 0
        var inFlight = 0
        var lockedUntil: Date?
        var lockouts = 0
        var lastSeen: Date
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let capacity: Int
    /// Failures allowed per address and user name in one window.
    static let perUser = 10
    /// Failures allowed per address, over every user name, in one window.
    static let perAddress = 100
    static let window: TimeInterval = 60
    /// The longest lockout, reached after repeated ones.
    static let longestLockout: TimeInterval = 16 * 60

    init(capacity: Int = 10_000) { self.capacity = capacity }

    /// Reserves an attempt: nil when the password may be checked (then call
    /// `finish`), else the seconds to wait.
    func begin(address: String, username: String, now: Date) -> Int? {
        let keys = [(Key(address: address, username: username), Self.perUser), (Key(address: address, username: nil), Self.perAddress)]
        return entries.withLock { all -> Int? in
            var updated: [Key: Entry] = [:]
            for (key, limit) in keys {
                var entry = all[key] ?? Entry(windowStart: now, lastSeen: now)
                entry.lastSeen = now
                if let until = entry.lockedUntil, until > now {
                    return Self.seconds(until.timeIntervalSince(now))
                }
                if entry.lockedUntil != nil || now.timeIntervalSince(entry.windowStart) >= Self.window {
                    entry.lockedUntil = nil
                    entry.windowStart = now
                    entry.failures = 0
                }
                if entry.failures + entry.inFlight >= limit {
                    let lockout = min(Self.window * pow(2, Double(entry.lockouts)), Self.longestLockout)
                    entry.lockouts += 1
                    entry.lockedUntil = now.addingTimeInterval(lockout)
                    insert(entry, for: key, into: &all, now: now)
                    return Self.seconds(lockout)
                }
                entry.inFlight += 1
                updated[key] = entry
            }
            for (key, entry) in updated { insert(entry, for: key, into: &all, now: now) }
            return nil
        }
    }

    /// Ends an attempt `begin` allowed.
    func finish(address: String, username: String, succeeded: Bool, now: Date) {
        entries.withLock { all in
            for key in [Key(address: address, username: username), Key(address: address, username: nil)] {
                guard var entry = all[key] else { continue }
                entry.inFlight = max(0, entry.inFlight - 1)
                if succeeded && key.username != nil && entry.inFlight == 0 {
                    all.removeValue(forKey: key)
                    continue
                }
                if !succeeded { entry.failures += 1 }
                all[key] = entry
            }
        }
    }

    /// How many keys the table holds.
    var count: Int { entries.withLock { $0.count } }

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
