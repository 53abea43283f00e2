import FieldTypes
import Foundation
import Models
import ServerStore

/// The window `from` and `to` of an export (contract 1.2, on
/// `completed_at`), as the moments the stores compare `accepted_at` with:
/// the half-open `[from, to)`, so that consecutive windows
/// (`from=2026-11-01&to=2026-12-01`, then `from=2026-12-01`) hold every
/// report once. Each bound is an RFC 3339 time, or a date `YYYY-MM-DD`
/// meaning the start of that day in the organisation's time zone (as a
/// roll-up's days begin); either may be left out.
enum ExportWindow {
    /// `from` and `to` as the stores write times (UTC, whole seconds): 400
    /// for a bound that is neither a date nor an RFC 3339 time, or for a
    /// `from` that is not before `to`.
    static func bounds(from: String?, to: String?, zone: TimeZone) throws(ServerError) -> (
        from: String?, before: String?
    ) {
        var start: Date?
        var end: Date?
        if let from { start = try moment(from, name: "from", zone: zone) }
        if let to { end = try moment(to, name: "to", zone: zone) }
        if let start, let end, start >= end {
            throw ServerError.badRequest(
                "'from' \(OneLine.quote(from ?? "", limit: 40)) must come before 'to' \(OneLine.quote(to ?? "", limit: 40))"
            )
        }
        return (start.map(stamp), end.map(stamp))
    }

    /// The moment a bound names: an RFC 3339 time as it is, a date as the start of that day in `zone`.
    static func moment(_ text: String, name: String, zone: TimeZone) throws(ServerError) -> Date {
        if let time = RFC3339.date(text) { return time }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard RFC3339.isDay(text), parts.count == 3,
            let start = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
        else {
            throw ServerError.badRequest(
                "'\(name)' must be an RFC 3339 time such as 2026-12-01T00:00:00Z or a date such as 2026-12-01, not \(OneLine.quote(text, limit: 40))"
            )
        }
        return start
    }

    /// `date` as the stores write `accepted_at`: UTC, whole seconds, a
    /// fraction rounded up (a report of 10:00:00 is not at or after 10:00:00.5).
    static func stamp(_ date: Date) -> String {
        RFC3339.string(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.up)))
    }
}
