/// How often an inspection repeats: a recurrence rule (an iCalendar RRULE,
/// RFC 5545) in the subset the product offers, checked part by part and by
/// libical.
///
/// The subset is FREQ (DAILY, WEEKLY or MONTHLY), INTERVAL (1 to 366),
/// BYDAY (plain weekdays; numbered ones such as `2TU` or `-1FR` in monthly
/// rules only), BYMONTHDAY (monthly rules only, not with BYDAY), COUNT
/// (1 to 10000), UNTIL (read as a local date, inclusive) and WKST.
public struct Recurrence: Sendable, Hashable {
    /// The rule in one canonical form, without an `RRULE:` prefix, e.g.
    /// `FREQ=MONTHLY;BYDAY=2TU,4TU`. UNTIL is written as a date.
    public let text: String
    let parts: RuleParts

    /// Reads a rule, with or without `RRULE:`, in any letter case. Throws
    /// `RULE_INVALID` for text that is not a rule, `RULE_UNSUPPORTED` for a
    /// rule outside the subset, and `NEVER_OCCURS` for `COUNT=0`.
    public init(_ text: String) throws(ScheduleError) {
        let parts = try RuleParser.parse(text)
        guard LibICal.accepts(parts.text) else {
            throw .ruleInvalid("libical cannot read the rule \(text.quotedForMessage)")
        }
        self.parts = parts
        self.text = parts.text
    }

    /// The rule in English, as an administrator reads it, e.g.
    /// "every 2nd and 4th Tuesday" or "every day, 10 times".
    public var words: String {
        RuleWords(parts).pattern(startingOn: nil) + RuleWords(parts).limit(until: parts.until)
    }
}
