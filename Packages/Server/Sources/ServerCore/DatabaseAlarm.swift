import Foundation
import ServerHTTP
import Synchronization

/// Decides when the server says, in its log, that it cannot reach its
/// database (refused, reset, or silent past a deadline): one line at the
/// first request answered 503 for it, naming PostgreSQL's reason, then at
/// most one line every `interval` while it goes on, counting the requests
/// not mentioned. A network that stays split for an hour so leaves a few
/// dozen lines, not one per request.
final class DatabaseAlarm: Sendable {
    private struct State {
        /// When the last line was written (uptime nanoseconds); nil before the first.
        var lastLine: UInt64?
        /// Requests refused since that line.
        var unsaid = 0
    }

    private let state = Mutex(State())
    private let interval: UInt64

    /// An alarm that repeats itself at most every `seconds` (one minute by default).
    init(seconds: UInt64 = 60) {
        interval = seconds * 1_000_000_000
    }

    /// Counts one request refused because of `cause`; the line to log now, or nil.
    func refused(_ cause: String, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> String? {
        state.withLock { state -> String? in
            if let last = state.lastLine, now &- last < interval {
                state.unsaid += 1
                return nil
            }
            let more = state.unsaid > 0 ? " (\(state.unsaid) more requests answered 503 since the last line like this)" : ""
            state.lastLine = now
            state.unsaid = 0
            return "the database cannot be reached: \(cause); requests that need it are answered 503 UNAVAILABLE with Retry-After, and the server connects again by itself\(more)"
        }
    }

    /// For an error with a database `cause`: counts it and writes the line when one is due.
    func noted(_ error: ServerError, in log: ServerLog) {
        guard let cause = error.cause else { return }
        if let line = refused(cause) { log.note(line, level: .error) }
    }
}
