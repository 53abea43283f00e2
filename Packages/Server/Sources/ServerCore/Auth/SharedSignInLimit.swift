import Foundation
import ServerStore

/// The sign-in limits of `LoginThrottle` (failures per address and user
/// name, per address over all names, in one-minute windows) counted in the
/// database, so that every instance serving it shares one count: guesses
/// spread over many instances behind a load balancer meet the same limit as
/// guesses sent to one. `LoginThrottle` still orders the attempts within a
/// process and escalates its lockouts; this is the floor across processes.
struct SharedSignInLimit {
    let address: String
    let username: String
    /// Seconds over which failures are counted.
    let window: TimeInterval

    private var keys: [(key: String, limit: Int)] {
        [("user \(address) \(username)", LoginThrottle.perUser), ("address \(address)", LoginThrottle.perAddress)]
    }

    /// Seconds to wait when a limit is reached, else nil.
    func refusal(in session: any StorageSession, now: Date) throws(ServerError) -> Int? {
        try check(in: session, adding: 0, now: now)
    }

    /// Counts one wrong password against both keys.
    func recordFailure(in session: any StorageSession, now: Date) throws(ServerError) {
        _ = try check(in: session, adding: 1, now: now)
    }

    /// Forgets the user's failures after a right password, and entries idle for an hour.
    func recordSuccess(in session: any StorageSession, now: Date) throws(ServerError) {
        try session.clearSignInFailures(key: keys[0].key, staleBefore: now.addingTimeInterval(-3600))
    }

    private func check(in session: any StorageSession, adding: Int, now: Date) throws(ServerError) -> Int? {
        var wait: Int?
        for (key, limit) in keys {
            let (failures, started) = try session.countSignInFailures(
                key: key, adding: adding, now: now,
                window: window)
            if failures >= limit {
                let left = Int(Double(started) + window - now.timeIntervalSince1970.rounded(.down))
                wait = max(wait ?? 1, max(1, left))
            }
        }
        return wait
    }
}
