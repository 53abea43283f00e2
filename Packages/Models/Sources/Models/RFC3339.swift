import Foundation

/// RFC 3339 timestamps in UTC: the one place the product writes and reads
/// them (device, agent, exports, sync, server, signatures, logs).
///
/// Written by hand with calendar arithmetic (`CivilDate`): Foundation's
/// `ISO8601DateFormatter`, `DateFormatter` and `.iso8601` format styles load
/// time-zone data from files when they are first used and trap when that
/// fails, so a program under a failing disk died writing a timestamp. These
/// need no file, no formatter object, no locale and no clock.
public enum RFC3339 {
    /// `date` in UTC: `2026-03-01T14:02:00Z`, or `2026-03-01T14:02:00.123Z`
    /// with `milliseconds` (truncated, never rounded up into the next second).
    /// Years are kept within 0001 to 9999, the years the format can write.
    public static func string(_ date: Date, milliseconds: Bool = false) -> String {
        let moment = CivilDate(date)
        var text =
            moment.day + "T" + CivilDate.pad(moment.second / 3600, 2) + ":"
            + CivilDate.pad(moment.second / 60 % 60, 2) + ":" + CivilDate.pad(moment.second % 60, 2)
        if milliseconds {
            text += "." + CivilDate.pad(moment.millisecond, 3)
        }
        return text + "Z"
    }

    /// The UTC calendar day of `date`, an RFC 3339 full-date: `2026-03-01`.
    public static func day(_ date: Date) -> String {
        CivilDate(date).day
    }

    /// True for a real calendar day written `YYYY-MM-DD` (year 0001 to 9999).
    public static func isDay(_ text: String) -> Bool {
        dayParts(Array(text.utf8)[...]) != nil
    }

    /// True for an RFC 3339 date-time: a real day, `T` (or `t`, or a space
    /// when `allowingSpace`), `HH:MM:SS` (a leap second allowed), an optional
    /// fraction, then `Z` or an offset `+HH:MM`/`-HH:MM`.
    public static func isTimestamp(_ text: String, allowingSpace: Bool = false) -> Bool {
        Parsed(text, allowingSpace: allowingSpace) != nil
    }

    /// The moment an RFC 3339 date-time names (offsets applied; a leap second
    /// read as the last second of its minute), or nil for any other text.
    public static func date(_ text: String) -> Date? {
        guard let parsed = Parsed(text, allowingSpace: false) else { return nil }
        let days = CivilDate.days(year: parsed.year, month: parsed.month, day: parsed.day)
        let seconds = days * 86_400 + parsed.hour * 3600 + parsed.minute * 60 + min(parsed.second, 59) - parsed.offset
        return Date(timeIntervalSince1970: Double(seconds) + parsed.fraction)
    }

    /// Year, month and day of `YYYY-MM-DD`, when it names a real day.
    static func dayParts(_ chars: ArraySlice<UInt8>) -> (Int, Int, Int)? {
        let chars = Array(chars)
        guard chars.count == 10, chars[4] == UInt8(ascii: "-"), chars[7] == UInt8(ascii: "-"),
            let year = number(chars[0..<4]), let month = number(chars[5..<7]), let day = number(chars[8..<10]),
            (1...9999).contains(year), (1...12).contains(month),
            (1...CivilDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return (year, month, day)
    }

    /// The value of a run of ASCII digits; nil for anything else or nothing.
    static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for d in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(d) else { return nil }
            value = value * 10 + Int(d - UInt8(ascii: "0"))
        }
        return digits.isEmpty ? nil : value
    }
}
