import Foundation

/// Finding the occurrences that touch a span of time.
extension ScheduleCalendar {
    /// The occurrences whose window ends after `from` and starts before
    /// `to`, in order, at most `limit` of them. The cost depends on the span
    /// asked for, not on how long ago the schedule started (unless the rule
    /// has a COUNT, which is counted from the start and is at most 10000).
    public func occurrences(from: Date, to: Date, limit: Int) -> [Occurrence] {
        guard limit > 0, from < to else { return [] }
        // An occurrence on a day before the one `from` falls on may still be
        // open at `from` only by a day; two days before is safe.
        let firstWanted = clock.day(of: from).adding(days: -2)
        let lastWanted = [clock.day(of: to), end].compactMap { $0 }.min() ?? clock.day(of: to)
        // At most three of the days from `firstWanted` on can end before `from`.
        let days = days(from: firstWanted, through: lastWanted, atMost: limit + 3)
        let occurrences = days.compactMap(occurrence(on:)).filter { $0.end > from && $0.start < to }
        return Array(occurrences.prefix(limit))
    }

    /// The next `count` occurrences whose window ends after `after`,
    /// including one that is open at that instant.
    public func next(_ count: Int, after: Date) -> [Occurrence] {
        occurrences(from: after, to: .distantFuture, limit: count)
    }

    /// The days the rule gives from `first` to `last` inclusive, at most
    /// `limit` of them.
    private func days(from first: LocalDate, through last: LocalDate, atMost limit: Int) -> [LocalDate] {
        guard first <= last else { return [] }
        var days: [LocalDate] = []
        _ = LibICal.expand(rule.text, start: start, seek: seekDay(for: first)) { day in
            if day > last { return false }
            if day >= first { days.append(day) }
            return days.count < limit
        }
        return days
    }

    /// Where libical may begin instead of at the start date: only for a
    /// rule without COUNT, and only well after the start. libical 3.0.16's
    /// `icalrecur_iterator_set_start` can skip a day of a WEEKLY rule with
    /// INTERVAL and an unusual WKST when asked to begin in the first weeks,
    /// so near the start the days are counted from the start instead.
    private func seekDay(for first: LocalDate) -> LocalDate? {
        guard rule.parts.count == nil else { return nil }
        let margin = 62 + 31 * rule.parts.interval
        return first.dayNumber - start.dayNumber > margin ? first : nil
    }

    /// The occurrence on a day the rule gives, with the window's instants.
    private func occurrence(on day: LocalDate) -> Occurrence? {
        guard let opens = clock.instant(day, minutes: window.start),
            let closes = clock.instant(day, minutes: window.end), closes > opens
        else { return nil }
        return Occurrence(day: day, start: opens, end: closes)
    }
}
