internal import CLibical
import Foundation

/// The one place libical is called. Every call runs under one process-wide
/// lock: libical keeps its error number and its error settings in globals
/// (thread-local only in builds with pthread support), so the server may
/// use schedules from many threads at once only if calls never overlap.
/// No libical value outlives a call; the iterator is freed before the lock
/// is released.
enum LibICal {
    /// How many days one expansion may ask libical for, whatever the rule.
    static let iterationBound = 100_000

    private static let lock = NSLock()

    /// Whether libical reads the rule text and can expand it: it is parsed
    /// and an iterator is made from a fixed start day and freed.
    static func accepts(_ ruleText: String) -> Bool {
        let probeStart = LocalDate(checkedYear: 2000, month: 1, day: 1)
        return expand(ruleText, start: probeStart, seek: nil) { _ in false } != .refused
    }

    /// How an expansion ended.
    enum Outcome: Equatable {
        /// libical gave no more days, or the visitor asked to stop.
        case finished
        /// The bound on iterations was reached first.
        case bounded
        /// libical would not read the rule or begin the expansion from that start.
        case refused
    }

    /// Hands `visit` the days the rule yields from `start` (a floating
    /// DTSTART date), in order, until it returns false, libical has no more,
    /// or `iterationBound` days have been seen. With `seek`, libical is asked
    /// to begin there instead (only for rules without COUNT, which must be
    /// counted from DTSTART). `visit` runs under the lock and must not call
    /// back into this type.
    static func expand(
        _ ruleText: String, start: LocalDate, seek: LocalDate?, visit: (LocalDate) -> Bool
    ) -> Outcome {
        lock.lock()
        defer { lock.unlock() }
        return withoutFatalErrors {
            icalerror_clear_errno()
            var rule = ruleText.withCString { icalrecurrencetype_from_string($0) }
            defer { freeScale(&rule) }
            guard rule.freq != ICAL_NO_RECURRENCE, icalerrno_return().pointee == ICAL_NO_ERROR,
                let iterator = icalrecur_iterator_new(rule, floatingDate(start))
            else { return .refused }
            defer { icalrecur_iterator_free(iterator) }
            // set_start fails only when no day falls before libical's last
            // year (2582): there is nothing more to give.
            if let seek, rule.count == 0, icalrecur_iterator_set_start(iterator, floatingDate(seek)) == 0 {
                return .finished
            }
            for _ in 0..<iterationBound {
                let next = icalrecur_iterator_next(iterator)
                if icaltime_is_null_time(next) != 0 { return .finished }
                let day = LocalDate(checkedYear: Int(next.year), month: Int(next.month), day: Int(next.day))
                if !visit(day) { return .finished }
            }
            return .bounded
        }
    }

    /// Runs `body` with libical's "errors are fatal" setting off, so that a
    /// rule libical dislikes can never abort the process, and puts the
    /// setting back afterwards. Callers hold the lock.
    private static func withoutFatalErrors<T>(_ body: () -> T) -> T {
        let wasFatal = icalerror_get_errors_are_fatal()
        if wasFatal != 0 { icalerror_set_errors_are_fatal(0) }
        defer { if wasFatal != 0 { icalerror_set_errors_are_fatal(wasFatal) } }
        return body()
    }

    /// A DATE value (no time, no zone) for the day.
    private static func floatingDate(_ day: LocalDate) -> icaltimetype {
        var time = icaltime_null_time()
        time.year = Int32(day.year)
        time.month = Int32(day.month)
        time.day = Int32(day.day)
        time.is_date = 1
        return time
    }

    /// Frees the RSCALE name libical copies out of a rule, if any (the
    /// parser refuses RSCALE, so there should be none).
    private static func freeScale(_ rule: inout icalrecurrencetype) {
        if let scale = rule.rscale {
            free(scale)
            rule.rscale = nil
        }
    }
}
