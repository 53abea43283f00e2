import Foundation
import ServerStore

/// Runs password checks a few at a time. Each argon2id check takes 64 MiB
/// and about 100 ms of a core, so unbounded concurrent sign-ins would take
/// the server's memory; the others wait their turn (they hold only a worker
/// thread), and those that would wait too long are answered 503 with
/// `Retry-After`.
final class PasswordGate: @unchecked Sendable {
    // `running` and `waiting` are read and written only with `condition` locked.
    private let condition = NSCondition()
    private var running = 0
    private var waiting = 0
    private let limit: Int
    private let maximumWaiting: Int
    private let maximumWait: TimeInterval

    init(limit: Int, maximumWaiting: Int = 64, maximumWait: TimeInterval = 10) {
        self.limit = limit
        self.maximumWaiting = maximumWaiting
        self.maximumWait = maximumWait
    }

    /// Runs `check` when a slot is free; 503 when too many are waiting or the wait is too long.
    func run<T>(_ check: () -> T) throws(ServerError) -> T {
        condition.lock()
        if running >= limit {
            guard waiting < maximumWaiting else {
                condition.unlock()
                throw ServerError.unavailable("too many sign-ins at once; retry in 1 second", retryAfter: 1)
            }
            waiting += 1
            let deadline = Date().addingTimeInterval(maximumWait)
            while running >= limit {
                if !condition.wait(until: deadline) && running >= limit {
                    waiting -= 1
                    condition.unlock()
                    throw ServerError.unavailable("too many sign-ins at once; retry in 2 seconds", retryAfter: 2)
                }
            }
            waiting -= 1
        }
        running += 1
        condition.unlock()
        defer {
            condition.lock()
            running -= 1
            condition.signal()
            condition.unlock()
        }
        return check()
    }
}
