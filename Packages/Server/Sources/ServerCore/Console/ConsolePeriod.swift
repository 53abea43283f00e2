import Foundation
import ServerStore

/// The period a console page's query names, as `report` reads it from
/// options: `month`, `week`, `quarter`, or `from` and `to` (a blank one is
/// not given); this month of the organisation's zone when none is.
struct ConsolePeriod: Sendable {
    var period: RollupPeriod
    /// The query's period pairs, for links to the same period (a CSV).
    var pairs: [(String, String)]

    init(_ input: ConsoleInput, zone: TimeZone) throws(ServerError) {
        func given(_ name: String) -> String? { input.query(name).flatMap { $0.isEmpty ? nil : $0 } }
        var month = given("month")
        let (week, quarter, from, to) = (given("week"), given("quarter"), given("from"), given("to"))
        if month == nil && week == nil && quarter == nil && from == nil && to == nil {
            month = RollupPeriod.thisMonth(zone: zone)
        }
        period = try RollupPeriod.named(month: month, week: week, quarter: quarter, from: from, to: to, zone: zone)
        pairs = [("month", month), ("week", week), ("quarter", quarter), ("from", from), ("to", to)].compactMap {
            name, value in value.map { (name, $0) }
        }
    }
}
