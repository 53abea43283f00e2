import Foundation
import Synchronization

/// How often a line about a lasting condition (a full disk, a database out
/// of reach) is written: at its first occurrence, then at most once every
/// `interval` while it goes on, counting the occurrences not written. A
/// condition that lasts for hours so leaves a few lines, not one per request.
final class RepeatingAlarm: Sendable {
    private struct State {
        var cadence: Cadence
        /// Occurrences since the last line.
        var unsaid = 0
    }

    private let state: Mutex<State>

    /// An alarm that repeats itself at most every `seconds`.
    init(seconds: UInt64) {
        state = Mutex(State(cadence: Cadence(seconds: seconds)))
    }

    /// Counts one occurrence. When a line is due now, the occurrences not
    /// written since the last one; nil when one was written within `interval`.
    func occurred(now: UInt64) -> Int? {
        state.withLock { state -> Int? in
            guard state.cadence.isDue(now: now) else {
                state.unsaid += 1
                return nil
            }
            defer { state.unsaid = 0 }
            return state.unsaid
        }
    }
}
