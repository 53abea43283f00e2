import Foundation
import Schedules

/// Small helpers the schedule tests share: making calendars from the text
/// an administrator types, and reading instants written in UTC.
enum ScheduleTestSupport {
    /// The instant written as `2027-03-28T06:00:00Z`.
    static func utc(_ text: String) -> Date {
        guard let date = ISO8601DateFormatter().date(from: text) else {
            preconditionFailure("not an ISO 8601 instant: \(text)")
        }
        return date
    }

    /// A calendar made from text, as `schedule add` would make it.
    static func calendar(
        _ rule: String, window: String = "07:00-11:00", start: String, end: String? = nil,
        zone: String = "UTC"
    ) throws -> ScheduleCalendar {
        try ScheduleCalendar(
            rule: Recurrence(rule), window: TimeWindow(window), start: LocalDate(start),
            end: end.map { try LocalDate($0) }, zone: zone)
    }

    /// The days (`YYYY-MM-DD`) a rule falls on from `start` through the
    /// end of `through`, in UTC.
    static func days(_ rule: String, start: String, end: String? = nil, through: String) throws -> [String] {
        let calendar = try calendar(rule, start: start, end: end)
        let from = utc("\(start)T00:00:00Z")
        let to = utc("\(through)T23:59:59Z")
        return calendar.occurrences(from: from, to: to, limit: 1000).map(\.day.description)
    }

    /// The single occurrence a daily schedule has on `day` in `zone`.
    static func only(window: String, on day: String, zone: String) throws -> Occurrence? {
        let calendar = try calendar("FREQ=DAILY", window: window, start: day, end: day, zone: zone)
        let found = calendar.next(5, after: .distantPast)
        return found.count == 1 ? found[0] : nil
    }
}
