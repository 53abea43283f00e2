import Foundation
import ServerHTTP
import ServerStore

/// Decides when the server says, in its log, that it cannot reach its
/// database (refused, reset, or silent past a deadline): one line at the
/// first request answered 503 for it, naming PostgreSQL's reason, then at
/// most one line every `interval` while it goes on, counting the requests
/// not mentioned. A network that stays split for an hour so leaves a few
/// dozen lines, not one per request.
final class DatabaseAlarm: Sendable {
    private let alarm: RepeatingAlarm

    /// An alarm that repeats itself at most every `seconds`.
    init(seconds: UInt64 = 60) {
        alarm = RepeatingAlarm(seconds: seconds)
    }

    /// Counts one request refused because of `cause`; the line to log now, or nil.
    func refused(_ cause: String, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> String? {
        guard let unsaid = alarm.occurred(now: now) else { return nil }
        let more = unsaid > 0 ? " (\(unsaid) more requests answered 503 since the last line like this)" : ""
        return
            "the database cannot be reached: \(cause); requests that need it are answered 503 UNAVAILABLE with Retry-After, and the server connects again by itself\(more)"
    }

    /// For an error with a database `cause`: counts it and writes the line when one is due.
    func noted(_ error: ServerError, in log: ServerLog) {
        guard let cause = error.cause else { return }
        if let line = refused(cause) { log.note(line, level: .error) }
    }
}
