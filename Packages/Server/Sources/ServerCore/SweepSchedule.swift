import Foundation
import Synchronization

/// When a new upload looks for expired ones to sweep: at the first, then at
/// most once every `interval`. Uploads live an hour at least, and the look
/// is a read of the database every new upload paid before; an expired upload
/// is refused whether swept yet or not (every lookup and the quota ask its
/// `expires_at`), so sweeping later only frees its bytes later.
final class SweepSchedule: Sendable {
    /// When the next sweep is due (uptime nanoseconds).
    private let next = Mutex<UInt64>(0)
    private let interval: UInt64

    /// A schedule of one sweep every `seconds` at most.
    init(seconds: UInt64) {
        interval = seconds * 1_000_000_000
    }

    /// True when a sweep is due at `now`; the next is then `interval` later.
    func isDue(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        next.withLock { next in
            guard now >= next else { return false }
            next = now &+ interval
            return true
        }
    }
}
