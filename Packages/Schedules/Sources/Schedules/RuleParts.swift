/// A recurrence rule read into its parts, all within the supported subset:
/// what the words are made from and what libical is given.
struct RuleParts: Sendable, Hashable {
    /// How often the rule repeats.
    enum Frequency: String, Sendable, Hashable {
        case daily = "DAILY"
        case weekly = "WEEKLY"
        case monthly = "MONTHLY"
    }

    /// One BYDAY entry: a weekday, and for monthly rules which one of the
    /// month (`2` for the second, `-1` for the last, `0` for every one).
    struct Day: Sendable, Hashable, Comparable {
        let weekday: Weekday
        let position: Int

        /// The entry as RFC 5545 writes it: `TU`, `2TU`, `-1FR`.
        var code: String { (position == 0 ? "" : String(position)) + weekday.code }

        /// Monday first; within a weekday, every one, then first to fifth,
        /// then fifth-to-last to last.
        static func < (lhs: Day, rhs: Day) -> Bool {
            (lhs.weekday, positionOrder(lhs.position)) < (rhs.weekday, positionOrder(rhs.position))
        }
    }

    var frequency: Frequency
    var interval = 1
    var days: [Day] = []
    var monthDays: [Int] = []
    var count: Int?
    var until: LocalDate?
    var weekStart: Weekday?

    /// Orders positions as a month runs: 1, 2, ... then ..., -2, -1.
    static func positionOrder(_ position: Int) -> Int {
        position < 0 ? 1000 + position : position
    }

    /// The rule written back in one canonical form, without `RRULE:`: parts
    /// in a fixed order, defaults left out, lists sorted, and UNTIL as a
    /// date (the schedule counts in local dates).
    var text: String {
        var parts = ["FREQ=\(frequency.rawValue)"]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if !days.isEmpty { parts.append("BYDAY=" + days.map(\.code).joined(separator: ",")) }
        if !monthDays.isEmpty { parts.append("BYMONTHDAY=" + monthDays.map(String.init).joined(separator: ",")) }
        if let count { parts.append("COUNT=\(count)") }
        if let until {
            parts.append("UNTIL=" + until.description.filter { $0 != "-" })
        }
        if let weekStart, weekStart != .monday { parts.append("WKST=\(weekStart.code)") }
        return parts.joined(separator: ";")
    }
}
