import Foundation

/// Calendar arithmetic for `date` answers and signature timestamps, in UTC,
/// without formatters or time-zone lookups (proleptic Gregorian calendar).
enum CalendarDate {
    /// True for a real date written `YYYY-MM-DD` (year 0001 to 9999).
    static func isValid(_ text: String) -> Bool {
        let chars = Array(text.utf8)
        guard chars.count == 10, chars[4] == UInt8(ascii: "-"), chars[7] == UInt8(ascii: "-") else { return false }
        guard let year = number(chars[0..<4]), let month = number(chars[5..<7]), let day = number(chars[8..<10]) else { return false }
        guard (1...9999).contains(year), (1...12).contains(month) else { return false }
        return (1...daysIn(month: month, year: year)).contains(day)
    }

    /// The UTC calendar date of `date`, written `YYYY-MM-DD`.
    static func day(of date: Date) -> String {
        let (year, month, day, _) = civil(date)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// `date` as an RFC 3339 UTC timestamp to the second: `2026-03-01T14:02:00Z`.
    static func timestamp(of date: Date) -> String {
        let (_, _, _, seconds) = civil(date)
        return day(of: date) + "T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))Z"
    }

    /// True for an RFC 3339 timestamp: `YYYY-MM-DDTHH:MM:SS`, optional
    /// fraction, then `Z` or an offset `+HH:MM`.
    static func isTimestamp(_ text: String) -> Bool {
        let chars = Array(text.utf8)
        guard chars.count >= 20, isValid(String(decoding: chars[0..<10], as: UTF8.self)) else { return false }
        guard chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: "t"),
              chars[13] == UInt8(ascii: ":"), chars[16] == UInt8(ascii: ":"),
              let hour = number(chars[11..<13]), let minute = number(chars[14..<16]), let second = number(chars[17..<19]),
              hour < 24, minute < 60, second < 61 else { return false }
        var rest = chars[19...]
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            let digits = rest.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard !digits.isEmpty else { return false }
            rest = rest.dropFirst(digits.count)
        }
        if rest.elementsEqual("Z".utf8) || rest.elementsEqual("z".utf8) { return true }
        guard rest.count == 6, rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") else { return false }
        let offset = Array(rest)
        guard offset[3] == UInt8(ascii: ":"), let h = number(offset[1..<3]), let m = number(offset[4..<6]) else { return false }
        return h < 24 && m < 60
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Year, month, day and seconds into the day of `date` in UTC
    /// (days-to-civil conversion after Howard Hinnant's published algorithm).
    private static func civil(_ date: Date) -> (Int, Int, Int, Int) {
        let clamped = min(max(date.timeIntervalSince1970, -62_135_596_800), 253_402_300_799)
        let whole = Int(clamped.rounded(.down))
        let days = Int((Double(whole) / 86_400).rounded(.down))
        let seconds = whole - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, seconds)
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for d in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(d) else { return nil }
            value = value * 10 + Int(d - UInt8(ascii: "0"))
        }
        return digits.isEmpty ? nil : value
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(width - text.count, 0)) + text
    }
}
