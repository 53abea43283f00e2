import Foundation

/// Something done at most once every `interval`: at the first chance, then
/// not again until `interval` has passed. A value; its owner keeps it under
/// its own lock (`RepeatingAlarm` beside the count of what it did not say,
/// `ServerApp` for the sweep of expired uploads).
struct Cadence: Sendable {
    /// When it is next due (uptime nanoseconds).
    private var next: UInt64 = 0
    private let interval: UInt64

    /// At most once every `seconds`.
    init(seconds: UInt64) {
        interval = seconds * 1_000_000_000
    }

    /// True when it is due at `now`; the next time is then `interval` later.
    mutating func isDue(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        guard now >= next else { return false }
        next = now &+ interval
        return true
    }
}
