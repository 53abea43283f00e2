import Foundation

/// Turns local dates and clock times in one time zone into instants and
/// back, with Foundation's Gregorian calendar.
///
/// A local time that does not exist because the clocks go forward (01:30
/// on the day London moves from 01:00 GMT to 02:00 BST) is moved forward by
/// the length of the gap (to 02:30 BST), which is what Foundation does. A
/// local time that happens twice because the clocks go back (01:30 on the
/// day New York moves from EDT to EST) is the first, earlier instant.
struct ZoneClock: Sendable {
    private let calendar: Calendar

    init(_ zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
    }

    /// The instant at `minutes` after the local midnight that starts `day`;
    /// 1440 minutes is the midnight that starts the next day.
    func instant(_ day: LocalDate, minutes: Int) -> Date? {
        if minutes >= 24 * 60 { return instant(day.adding(days: 1), minutes: minutes - 24 * 60) }
        let parts = DateComponents(
            year: day.year, month: day.month, day: day.day, hour: minutes / 60, minute: minutes % 60)
        return calendar.date(from: parts)
    }

    /// The local date an instant falls on in this zone.
    func day(of instant: Date) -> LocalDate {
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        return LocalDate(checkedYear: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }
}
