import Foundation

/// When a schedule's inspections fall due: its rule, expanded from its
/// start date to its end date, each day given the window's local hours in
/// the organisation's time zone. 07:00 local stays 07:00 local across
/// daylight-saving changes (see `ZoneClock` for the hour that is skipped
/// or repeated).
public struct ScheduleCalendar: Sendable {
    /// How often the schedule repeats.
    public let rule: Recurrence
    /// The local hours of each occurrence.
    public let window: TimeWindow
    /// The first local date the schedule may fall on (DTSTART).
    public let start: LocalDate
    /// The last local date it may fall on, inclusive; nil for no end.
    public let end: LocalDate?
    /// The organisation's IANA time zone, e.g. `Europe/London`.
    public let zone: String
    /// The local date of the first occurrence.
    public let firstDay: LocalDate
    let clock: ZoneClock

    /// Makes a schedule's calendar. Throws `ZONE_UNKNOWN` for a zone
    /// Foundation does not know, `DATE_INVALID` for a start outside 1900 to
    /// 2500, and `NEVER_OCCURS` when no day at all would fall due (the end
    /// or the rule's UNTIL before the start, or the end before the first
    /// day the rule gives).
    public init(
        rule: Recurrence, window: TimeWindow, start: LocalDate, end: LocalDate?, zone: String
    ) throws(ScheduleError) {
        guard let timeZone = TimeZone(identifier: zone) else {
            throw .zoneUnknown(
                "the time zone \(zone.quotedForMessage) is not known; use an IANA name such as Europe/London")
        }
        guard (1900...2500).contains(start.year) else {
            throw .dateInvalid("the start date \(start) is not supported; a schedule starts between 1900 and 2500")
        }
        if let end, end < start {
            throw .neverOccurs("the schedule ends on \(end), before it starts on \(start), so it would never fall due")
        }
        if let until = rule.parts.until, until < start {
            throw .neverOccurs(
                "the rule ends (UNTIL) on \(until), before the schedule starts on \(start), "
                    + "so it would never fall due")
        }
        let firstDay = try ScheduleCalendar.firstDay(of: rule, from: start)
        if let end, firstDay > end {
            throw .neverOccurs(
                "the schedule ends on \(end), before the first day the rule gives (\(firstDay)), "
                    + "so it would never fall due")
        }
        self.rule = rule
        self.window = window
        self.start = start
        self.end = end
        self.zone = zone
        self.firstDay = firstDay
        self.clock = ZoneClock(timeZone)
    }

    /// The schedule in English, as `schedule list` shows it, e.g.
    /// "every 2nd and 4th Tuesday, 07:00-11:00" or
    /// "every day, 07:00-11:00, until 2027-03-31".
    public var words: String {
        let ruleWords = RuleWords(rule.parts)
        let until = [rule.parts.until, end].compactMap { $0 }.min()
        return ruleWords.pattern(startingOn: start) + ", \(window)" + ruleWords.limit(until: until)
    }

    /// The first day the rule gives from `start`, or `NEVER_OCCURS`.
    private static func firstDay(of rule: Recurrence, from start: LocalDate) throws(ScheduleError) -> LocalDate {
        var first: LocalDate?
        _ = LibICal.expand(rule.text, start: start, seek: nil) { day in
            first = day
            return false
        }
        guard let first else {
            throw .neverOccurs(
                "the rule \(rule.text) gives no day from \(start) on, so the schedule would never fall due")
        }
        return first
    }
}
