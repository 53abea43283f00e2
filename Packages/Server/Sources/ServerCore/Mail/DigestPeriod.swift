import Foundation
import Models
import ServerStore

/// The period a digest covers: the day before, or the week (Monday to
/// Sunday) before, in the organisation's time zone; sent at 07:00 there on
/// the day after it ends, whatever daylight saving does.
struct DigestPeriod: Sendable, Equatable {
    var frequency: DigestFrequency
    /// `2026-12-06`, or `W` and the week's Monday (`W2026-11-30`): with the person, the digest's identity.
    var key: String
    /// `[from, to)`, as the store writes times.
    var from: String
    var to: String
    /// How a person reads it: "Sunday 6 December 2026", "the week of 30 November 2026".
    var name: String

    /// The hour of the organisation's day digests are sent at.
    static let hour = 7

    /// The latest period of `frequency` whose sending time has come by `now`; nil for `off`.
    static func due(_ frequency: DigestFrequency, zone: TimeZone, now: Date) -> DigestPeriod? {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone
        let today = calendar.startOfDay(for: now)
        switch frequency {
        case .off:
            return nil
        case .daily:
            let sending = calendar.date(bySettingHour: hour, minute: 0, second: 0, of: today) ?? today
            let end = now >= sending ? today : calendar.date(byAdding: .day, value: -1, to: today) ?? today
            let start = calendar.date(byAdding: .day, value: -1, to: end) ?? end
            return DigestPeriod(
                frequency: .daily, key: day(start, calendar), from: RFC3339.string(start), to: RFC3339.string(end),
                name: OrganisationLook.format(start, "EEEE d MMMM yyyy", zone: zone))
        case .weekly:
            let monday =
                calendar.date(from: calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: today)) ?? today
            let sending = calendar.date(bySettingHour: hour, minute: 0, second: 0, of: monday) ?? monday
            let end = now >= sending ? monday : calendar.date(byAdding: .day, value: -7, to: monday) ?? monday
            let start = calendar.date(byAdding: .day, value: -7, to: end) ?? end
            return DigestPeriod(
                frequency: .weekly, key: "W" + day(start, calendar), from: RFC3339.string(start),
                to: RFC3339.string(end),
                name: "the week of " + OrganisationLook.format(start, "d MMMM yyyy", zone: zone))
        }
    }

    private static func day(_ date: Date, _ calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    }
}
