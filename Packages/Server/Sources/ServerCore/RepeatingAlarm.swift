import Foundation
import Synchronization

/// How often a line about a lasting condition (a full disk, a database out
/// of reach) is written: at its first occurrence, then at most once every
/// `interval` while it goes on, counting the occurrences not written. A
/// condition that lasts for hours so leaves a few lines, not one per request.
final class RepeatingAlarm: Sendable {
    private struct State {
        /// When the last line was written (uptime nanoseconds); nil before the first.
        var lastLine: UInt64?
        /// Occurrences since that line.
        var unsaid = 0
    }

    private let state = Mutex(State())
    private let interval: UInt64

    /// An alarm that repeats itself at most every `seconds`.
    init(seconds: UInt64) {
        interval = seconds * 1_000_000_000
    }

    /// Counts one occurrence. When a line is due now, the occurrences not
    /// written since the last one; nil when one was written within `interval`.
    func occurred(now: UInt64) -> Int? {
        state.withLock { state -> Int? in
            if let last = state.lastLine, now &- last < interval {
                state.unsaid += 1
                return nil
            }
            let unsaid = state.unsaid
            state.lastLine = now
            state.unsaid = 0
            return unsaid
        }
    }
}
