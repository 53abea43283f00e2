/// Reads recurrence rule text part by part into `RuleParts`, refusing what
/// is not an RRULE and what lies outside the supported subset. libical is
/// asked afterwards as well, but it skips over some mistakes (`INTERVAL=2x`
/// reads as 2), so every name and value is checked here first.
enum RuleParser {
    /// The parts the product offers, in the order the refusal names them.
    static let supportedNames = ["FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "COUNT", "UNTIL", "WKST"]
    /// Parts RFC 5545 and RFC 7529 define that the product does not offer.
    static let unsupportedNames = [
        "BYSECOND", "BYMINUTE", "BYHOUR", "BYWEEKNO", "BYYEARDAY", "BYMONTH", "BYSETPOS", "RSCALE", "SKIP",
    ]
    static let supportedList = "use FREQ, INTERVAL, BYDAY, BYMONTHDAY, COUNT, UNTIL"

    /// The parts of the rule, or the first problem found with it: the form
    /// first, then the frequency, then the parts outside the subset, then
    /// each value.
    static func parse(_ text: String) throws(ScheduleError) -> RuleParts {
        let named = try fields(of: text)
        let fields = Dictionary(named, uniquingKeysWith: { first, _ in first })
        guard let freq = fields["FREQ"] else {
            throw .ruleInvalid(
                "the rule \(text.quotedForMessage) has no FREQ; start it with FREQ=DAILY, FREQ=WEEKLY or FREQ=MONTHLY")
        }
        var parts = RuleParts(frequency: try frequency(freq))
        if let (name, _) = named.first(where: { unsupportedNames.contains($0.0) }) {
            throw .ruleUnsupported("the rule part \(name) is not supported; \(supportedList)")
        }
        try checkCombination(fields)
        if let value = fields["INTERVAL"] { parts.interval = try number("INTERVAL", value, in: 1...366) }
        if let value = fields["COUNT"] { parts.count = try count(value) }
        if let value = fields["UNTIL"] { parts.until = try until(value) }
        if let value = fields["WKST"] { parts.weekStart = try weekStart(value) }
        if let value = fields["BYDAY"] { parts.days = try RuleParser.days(value, for: parts.frequency) }
        if let value = fields["BYMONTHDAY"] { parts.monthDays = try monthDays(value, for: parts.frequency) }
        return parts
    }

    /// The rule's `NAME=VALUE` parts in the order written, names upper-cased;
    /// refuses text not in that form, names no RFC defines, and repeats.
    private static func fields(of text: String) throws(ScheduleError) -> [(String, String)] {
        var body = Substring(text.uppercased()).trimmingASCIISpaces
        if body.hasPrefix("RRULE:") { body = body.dropFirst("RRULE:".count) }
        var segments = body.split(separator: ";", omittingEmptySubsequences: false)
        if segments.count > 1, segments.last == "" { segments.removeLast() }
        var fields: [(String, String)] = []
        for segment in segments {
            let pair = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, !pair[0].isEmpty, !pair[1].isEmpty,
                pair[0].allSatisfy({ $0.isASCII && $0.isLetter })
            else {
                throw .ruleInvalid(
                    "the rule \(text.quotedForMessage) is not an RRULE; write NAME=VALUE parts separated by ;, "
                        + "e.g. FREQ=WEEKLY;BYDAY=MO")
            }
            let name = String(pair[0])
            guard supportedNames.contains(name) || unsupportedNames.contains(name) else {
                throw .ruleInvalid("the rule \(text.quotedForMessage) has a part \(name) that RFC 5545 does not define")
            }
            guard !fields.contains(where: { $0.0 == name }) else {
                throw .ruleInvalid("the rule \(text.quotedForMessage) gives \(name) more than once")
            }
            fields.append((name, String(pair[1])))
        }
        return fields
    }

    private static func frequency(_ value: String) throws(ScheduleError) -> RuleParts.Frequency {
        if let frequency = RuleParts.Frequency(rawValue: value) { return frequency }
        let others = ["YEARLY", "HOURLY", "MINUTELY", "SECONDLY"]
        let shown = "FREQ=\(value)".printableForMessage
        if others.contains(value) {
            throw .ruleUnsupported("\(shown) is not supported; use FREQ=DAILY, FREQ=WEEKLY or FREQ=MONTHLY")
        }
        throw .ruleInvalid("\(shown) is not a frequency; use FREQ=DAILY, FREQ=WEEKLY or FREQ=MONTHLY")
    }

    static func number(_ name: String, _ value: String, in range: ClosedRange<Int>) throws(ScheduleError) -> Int {
        guard let number = Int(digits: Substring(value)), range.contains(number) else {
            throw .ruleInvalid(
                "\("\(name)=\(value)".printableForMessage) must be a whole number from "
                    + "\(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    private static func count(_ value: String) throws(ScheduleError) -> Int {
        if let number = Int(digits: Substring(value)), number == 0 {
            throw .neverOccurs("the rule says COUNT=0, so the schedule would never fall due")
        }
        guard let number = Int(digits: Substring(value)), number <= 10_000 else {
            throw .ruleUnsupported(
                "\("COUNT=\(value)".printableForMessage) is not supported; COUNT goes from 1 to 10000, "
                    + "use UNTIL or an end date for longer")
        }
        return number
    }

    private static func until(_ value: String) throws(ScheduleError) -> LocalDate {
        let digits = Substring(value.prefix(8))
        let rest = value.dropFirst(8)
        let timeIsValid =
            rest.isEmpty
            || (rest.count == 7 || (rest.count == 8 && rest.last == "Z"))
                && rest.first == "T" && Int(digits: rest.dropFirst().prefix(6)) != nil
        let invalid = ScheduleError.ruleInvalid(
            "\("UNTIL=\(value)".printableForMessage) is not a date like UNTIL=20270331 (or 20270331T235959Z)")
        guard digits.count == 8, timeIsValid, let year = Int(digits: digits.prefix(4)),
            let month = Int(digits: digits.dropFirst(4).prefix(2)), let day = Int(digits: digits.suffix(2))
        else { throw invalid }
        do {
            return try LocalDate(year: year, month: month, day: day)
        } catch {
            throw invalid
        }
    }

    private static func weekStart(_ value: String) throws(ScheduleError) -> Weekday {
        guard let weekday = Weekday(code: Substring(value)) else {
            throw .ruleInvalid(
                "\("WKST=\(value)".printableForMessage) is not a weekday; use MO, TU, WE, TH, FR, SA or SU")
        }
        return weekday
    }

    /// Refuses parts that may not go together.
    private static func checkCombination(_ fields: [String: String]) throws(ScheduleError) {
        if fields["COUNT"] != nil, fields["UNTIL"] != nil {
            throw .ruleInvalid("the rule has both COUNT and UNTIL; RFC 5545 allows one or the other, not both")
        }
        if fields["BYDAY"] != nil, fields["BYMONTHDAY"] != nil {
            throw .ruleUnsupported("BYDAY and BYMONTHDAY together are not supported; use one of them")
        }
    }
}

extension Substring {
    /// The text without leading and trailing white space.
    var trimmingASCIISpaces: Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}
