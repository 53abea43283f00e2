import FieldTypes
import Foundation
import Models
import ServerStore

/// A roll-up's window: whole days, weeks, months or quarters of the
/// organisation's time zone, or two moments, as the half-open range
/// `[from, to)` of UTC times the store compares `accepted_at` with.
struct RollupPeriod: Sendable, Equatable {
    /// The first moment in, as the store writes times (`2026-11-01T00:00:00Z`).
    var from: String
    /// The first moment after.
    var to: String
    /// How a person reads it: `2026-11`, `2026-W45`, `2026-Q4`, `2026-11-01 to 2026-11-30`.
    var name: String

    /// The period a request names: `month` (`YYYY-MM`), `week` (`YYYY-Www`,
    /// ISO weeks from Monday), `quarter` (`YYYY-Qn`), or `from` and `to`
    /// (each a date `YYYY-MM-DD`, whole days, `to` included; or an RFC 3339
    /// time, `to` excluded). Exactly one way must be given.
    static func named(
        month: String? = nil, week: String? = nil, quarter: String? = nil, from: String? = nil, to: String? = nil,
        zone: TimeZone
    ) throws(ServerError) -> RollupPeriod {
        let given = [month, week, quarter].compactMap { $0 }.count + (from != nil || to != nil ? 1 : 0)
        guard given == 1 else {
            throw ServerError.badRequest(
                given == 0
                    ? "name a period: a month (2026-11), a week (2026-W45), a quarter (2026-Q4), or from and to dates"
                    : "name one period only: a month, a week, a quarter, or from and to")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        if let month { return try Self.month(month, calendar) }
        if let quarter { return try Self.quarter(quarter, calendar) }
        if let week { return try Self.week(week, zone: zone) }
        guard let from, let to else { throw ServerError.badRequest("a period of dates needs both from and to") }
        let start = try moment(from, name: "from", endOfDay: false, calendar)
        let end = try moment(to, name: "to", endOfDay: true, calendar)
        guard start < end else { throw ServerError.badRequest("'from' must come before 'to'") }
        return RollupPeriod(from: RFC3339.string(start), to: RFC3339.string(end), name: "\(from) to \(to)")
    }

    /// The month it is now in `zone`, as `YYYY-MM`: what a page shows when asked for no period.
    static func thisMonth(zone: TimeZone, now: Date = Date()) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month], from: now)
        return String(format: "%04d-%02d", parts.year ?? 1970, parts.month ?? 1)
    }

    /// Whether `text` names a month, `YYYY-MM`.
    static func isMonth(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0].count == 4 && parts[1].count == 2
            && parts.allSatisfy { $0.allSatisfy(\.isASCII) && Int($0) != nil } && (1...12).contains(Int(parts[1]) ?? 0)
    }

    /// The month `YYYY-MM`.
    private static func month(_ text: String, _ calendar: Calendar) throws(ServerError) -> RollupPeriod {
        let parts = text.split(separator: "-")
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]),
            let month = Int(parts[1]), (1...12).contains(month)
        else {
            throw ServerError.badRequest(
                "\(OneLine.quote(text, limit: 20)) is not a month; write YYYY-MM, such as 2026-11")
        }
        return try span(year: year, month: month, months: 1, name: text, calendar)
    }

    /// The quarter `YYYY-Qn`.
    private static func quarter(_ text: String, _ calendar: Calendar) throws(ServerError) -> RollupPeriod {
        let parts = text.uppercased().split(separator: "-")
        guard parts.count == 2, parts[0].count == 4, let year = Int(parts[0]), parts[1].count == 2,
            parts[1].first == "Q", let quarter = Int(parts[1].dropFirst()), (1...4).contains(quarter)
        else {
            throw ServerError.badRequest(
                "\(OneLine.quote(text, limit: 20)) is not a quarter; write YYYY-Qn, such as 2026-Q4")
        }
        return try span(year: year, month: quarter * 3 - 2, months: 3, name: "\(year)-Q\(quarter)", calendar)
    }

    /// The ISO week `YYYY-Www`: Monday to Sunday.
    private static func week(_ text: String, zone: TimeZone) throws(ServerError) -> RollupPeriod {
        let parts = text.uppercased().split(separator: "-")
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone
        guard parts.count == 2, parts[0].count == 4, let year = Int(parts[0]), parts[1].first == "W",
            let week = Int(parts[1].dropFirst()), (1...53).contains(week),
            let start = calendar.date(from: DateComponents(weekday: 2, weekOfYear: week, yearForWeekOfYear: year)),
            calendar.component(.yearForWeekOfYear, from: start) == year,
            let end = calendar.date(byAdding: .day, value: 7, to: start)
        else {
            throw ServerError.badRequest(
                "\(OneLine.quote(text, limit: 20)) is not a week; write YYYY-Www, such as 2026-W45")
        }
        return RollupPeriod(
            from: RFC3339.string(start), to: RFC3339.string(end), name: String(format: "%04d-W%02d", year, week))
    }

    private static func span(year: Int, month: Int, months: Int, name: String, _ calendar: Calendar)
        throws(ServerError) -> RollupPeriod
    {
        guard (1970...9998).contains(year),
            let start = calendar.date(from: DateComponents(year: year, month: month, day: 1)),
            let end = calendar.date(byAdding: .month, value: months, to: start)
        else { throw ServerError.badRequest("\(OneLine.quote(name, limit: 20)) is out of range") }
        return RollupPeriod(from: RFC3339.string(start), to: RFC3339.string(end), name: name)
    }

    /// A date (the start of that day, or of the next for an end) or an RFC 3339 time.
    private static func moment(_ text: String, name: String, endOfDay: Bool, _ calendar: Calendar)
        throws(ServerError) -> Date
    {
        if let time = RFC3339.date(text) { return time }
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), (1970...9998).contains(year),
            let month = Int(parts[1]), let day = Int(parts[2]),
            let start = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            calendar.component(.day, from: start) == day,
            let moment = endOfDay ? calendar.date(byAdding: .day, value: 1, to: start) : start
        else {
            throw ServerError.badRequest(
                "'\(name)' \(OneLine.quote(text, limit: 40)) is not a date (YYYY-MM-DD) or an RFC 3339 time")
        }
        return moment
    }
}
