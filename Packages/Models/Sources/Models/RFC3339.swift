import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// RFC 3339 timestamps in UTC, written by hand from `gmtime_r`.
///
/// Foundation's `ISO8601DateFormatter` and `DateFormatter` load time-zone data
/// from files when they are first used and trap when that fails, so a
/// program under a failing disk died writing a timestamp. These need no file,
/// no formatter object and no locale.
public enum RFC3339 {
    /// `date` in UTC: `2026-03-01T14:02:00Z`, or `2026-03-01T14:02:00.123Z`
    /// with `milliseconds`.
    public static func string(_ date: Date, milliseconds: Bool = false) -> String {
        let interval = date.timeIntervalSince1970
        let whole = interval.rounded(.down)
        var seconds = time_t(whole)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text = "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
            + "T\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2))"
        if milliseconds {
            text += "." + pad(min(999, Int(((interval - whole) * 1000).rounded(.down))), 3)
        }
        return text + "Z"
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
