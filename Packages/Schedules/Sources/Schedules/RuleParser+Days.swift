/// Reading the BYDAY and BYMONTHDAY lists.
extension RuleParser {
    /// The BYDAY entries, sorted and without repeats. A numbered weekday
    /// (`2TU`, `-1FR`) is only accepted for a monthly rule.
    static func days(_ value: String, for frequency: RuleParts.Frequency) throws(ScheduleError) -> [RuleParts.Day] {
        let shown = "BYDAY=\(value)".printableForMessage
        var days: Set<RuleParts.Day> = []
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            guard item.count >= 2, let weekday = Weekday(code: item.suffix(2)),
                let position = position(item.dropLast(2))
            else {
                throw .ruleInvalid("\(shown) is not a list of weekdays like MO,TH (or 2TU,-1FR in a monthly rule)")
            }
            if position != 0, frequency != .monthly {
                throw .ruleUnsupported(
                    "\(shown) numbers a weekday, which needs FREQ=MONTHLY; "
                        + "with FREQ=\(frequency.rawValue) list plain weekdays, e.g. BYDAY=\(weekday.code)")
            }
            guard (-5...5).contains(position) else {
                throw .ruleInvalid("\(shown): a weekday of the month is numbered 1 to 5, or -1 to -5 from the end")
            }
            days.insert(RuleParts.Day(weekday: weekday, position: position))
        }
        return days.sorted()
    }

    /// The number before a weekday code: 0 when there is none, nil when it
    /// is not a signed number of one or two digits (or is written 0).
    private static func position(_ text: Substring) -> Int? {
        if text.isEmpty { return 0 }
        let negative = text.first == "-"
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text
        guard digits.count <= 2, let number = Int(digits: digits), number != 0 else { return nil }
        return negative ? -number : number
    }

    /// The BYMONTHDAY days (1 to 31, or -1 to -31 counted from the month's
    /// end), sorted as a month runs and without repeats. Monthly rules only.
    static func monthDays(_ value: String, for frequency: RuleParts.Frequency) throws(ScheduleError) -> [Int] {
        let shown = "BYMONTHDAY=\(value)".printableForMessage
        guard frequency == .monthly else {
            throw .ruleUnsupported("\(shown) needs FREQ=MONTHLY; a \(frequency.rawValue) rule cannot use it")
        }
        var days: Set<Int> = []
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            let negative = item.first == "-"
            let digits = item.first == "-" || item.first == "+" ? item.dropFirst() : item
            guard let number = Int(digits: digits), (1...31).contains(number) else {
                throw .ruleInvalid("\(shown) must list days from 1 to 31, or -1 to -31 counted from the month's end")
            }
            days.insert(negative ? -number : number)
        }
        return days.sorted { RuleParts.positionOrder($0) < RuleParts.positionOrder($1) }
    }
}
