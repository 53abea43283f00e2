/// A rule's parts in English, for the schedule list an administrator reads:
/// "every weekday", "every 2 weeks on Tuesday", "every last Friday",
/// "on the 1st and 15th of every month".
struct RuleWords {
    let parts: RuleParts

    init(_ parts: RuleParts) {
        self.parts = parts
    }

    /// When the rule falls. The start date, when known, names the day a
    /// weekly rule without BYDAY or a bare monthly rule repeats on.
    func pattern(startingOn start: LocalDate?) -> String {
        switch parts.frequency {
        case .daily: daily
        case .weekly: weekly(startingOn: start)
        case .monthly: monthly(startingOn: start)
        }
    }

    /// How the rule ends, to follow the pattern: ", 10 times", ", once",
    /// ", until 2027-03-31" (the last day, inclusive), or nothing.
    func limit(until: LocalDate?) -> String {
        let times = parts.count.map { $0 == 1 ? ", once" : ", \($0) times" } ?? ""
        return times + (until.map { ", until \($0)" } ?? "")
    }

    private var weekdays: [Weekday] {
        Array(Set(parts.days.map(\.weekday))).sorted()
    }

    private var daily: String {
        let every = parts.interval == 1 ? "every day" : "every \(parts.interval) days"
        let days = weekdays
        if days.isEmpty || days.count == 7 { return every }
        if parts.interval > 1 { return every + ", when that is a " + RuleWords.list(days.map(\.name), last: "or") }
        if days == [.monday, .tuesday, .wednesday, .thursday, .friday] { return "every weekday" }
        return "every " + RuleWords.list(days.map(\.name))
    }

    private func weekly(startingOn start: LocalDate?) -> String {
        let every = parts.interval == 1 ? "every week" : "every \(parts.interval) weeks"
        let days = weekdays.isEmpty ? (start.map { [$0.weekday] } ?? []) : weekdays
        return days.isEmpty ? every : every + " on " + RuleWords.list(days.map(\.name))
    }

    private func monthly(startingOn start: LocalDate?) -> String {
        let period = parts.interval == 1 ? "every month" : "every \(parts.interval) months"
        if !parts.days.isEmpty {
            let groups = weekdays.map { weekday in
                let positions = parts.days.filter { $0.weekday == weekday }.map(\.position)
                if positions.contains(0) { return weekday.name }
                return RuleWords.list(positions.map(RuleWords.ordinal)) + " " + weekday.name
            }
            return "every " + RuleWords.list(groups) + (parts.interval == 1 ? "" : " of " + period)
        }
        if !parts.monthDays.isEmpty {
            let endsFromEnd = (parts.monthDays.last ?? 0) < 0
            let days = RuleWords.list(parts.monthDays.map(RuleWords.ordinal)) + (endsFromEnd ? " day" : "")
            return "on the \(days) of \(period)"
        }
        guard let start else { return period }
        return "on the \(RuleWords.ordinal(start.day)) of \(period)"
    }

    /// 1st, 2nd, 3rd, 4th, 11th, 21st; -1 is "last", -2 "2nd to last".
    static func ordinal(_ number: Int) -> String {
        if number < 0 { return number == -1 ? "last" : ordinal(-number) + " to last" }
        let suffix =
            switch (number % 100, number % 10) {
            case (11...13, _): "th"
            case (_, 1): "st"
            case (_, 2): "nd"
            case (_, 3): "rd"
            default: "th"
            }
        return "\(number)\(suffix)"
    }

    /// Items joined as English writes a list: "A", "A and B", "A, B and C".
    static func list(_ items: [String], last: String = "and") -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(last) " + items[items.count - 1]
    }
}
