import Foundation

/// A moment as a UTC calendar day and a time of day, by arithmetic alone
/// (the proleptic Gregorian calendar; conversions after Howard Hinnant's
/// published days-from-civil algorithms), for `RFC3339`.
struct CivilDate {
    var year, month, dayOfMonth: Int
    /// Seconds into the day.
    var second: Int
    /// Whole milliseconds into the second.
    var millisecond: Int

    /// `date` in UTC, clamped to the years 0001 to 9999.
    init(_ date: Date) {
        let interval = min(max(date.timeIntervalSince1970, -62_135_596_800), 253_402_300_799.999)
        let whole = interval.rounded(.down)
        millisecond = min(999, Int(((interval - whole) * 1000).rounded(.down)))
        let days = Int((whole / 86_400).rounded(.down))
        second = Int(whole) - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        dayOfMonth = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// `YYYY-MM-DD`.
    var day: String { "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(dayOfMonth, 2))" }

    /// Days from 1970-01-01 to a calendar day.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// How many days `month` has in `year`.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `value` in decimal, zero-padded to `width` digits.
    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
