import Foundation

/// A moment as an RFC 5322 `date-time` in UTC (`Mon, 07 Dec 2026 18:30:00 +0000`):
/// English names and fixed digits from the Gregorian calendar's numbers, so
/// that no locale or time zone of the host takes part.
enum MailDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = OrganisationZone.utc
        return calendar
    }()

    /// `date`, to the second (rounded down), in UTC.
    static func written(_ date: Date) -> String {
        let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: whole)
        let weekday = weekdays[((parts.weekday ?? 1) - 1) % 7]
        let month = months[((parts.month ?? 1) - 1) % 12]
        return "\(weekday), \(digits(parts.day, 2)) \(month) \(digits(parts.year, 4)) "
            + "\(digits(parts.hour, 2)):\(digits(parts.minute, 2)):\(digits(parts.second, 2)) +0000"
    }

    /// `value` with leading zeros to `count` digits.
    private static func digits(_ value: Int?, _ count: Int) -> String {
        let text = String(value ?? 0)
        return String(repeating: "0", count: max(count - text.count, 0)) + text
    }
}
