import Foundation
import FieldTypes
import Models

/// `duration`: how long something took (a deep clean, a dwell time), stored
/// as a whole number of seconds, 0 or more. Typed `1h30m`, `90m`, `45s`,
/// `1h 30m 15s` or `01:30:00`. A definition may bound it with `min_seconds`
/// and `max_seconds` (whole numbers); an answer outside them is refused, on
/// the device and by the server alike. Not scored. Timed again on a
/// re-inspection, so never copied.
public struct DurationField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"duration"`.
    public var name: String { "duration" }
    /// Timed again on each inspection.
    public var copiesOnReinspection: Bool { false }
    /// Conditions compare the number of seconds.
    public var logicKind: LogicKind? { .number }

    /// The bounds the field sets, in seconds (either may be nil).
    public func bounds(_ field: FieldDefinition) -> (min: Int64?, max: Int64?) {
        func bound(_ key: String) -> Int64? {
            guard let raw = field.raw[key], raw.numberValue != nil, let value = raw.integerValue, value >= 0 else {
                return nil
            }
            return value
        }
        return (bound("min_seconds"), bound("max_seconds"))
    }

    /// `min_seconds` and `max_seconds`, when given, are whole numbers of 0 or more, min not above max.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        for key in ["min_seconds", "max_seconds"] {
            guard let raw = field.raw[key], !raw.isNull else { continue }
            if raw.numberValue == nil || (raw.integerValue ?? -1) < 0 {
                problems.append(
                    field.problem(
                        "'\(key)' must be a whole number of seconds, 0 or more, not \(Refusal.describe(raw)); change it or remove it"
                    ))
            }
        }
        let (low, high) = bounds(field)
        if let low, let high, low > high {
            problems.append(field.problem("'min_seconds' \(low) is above 'max_seconds' \(high); swap them"))
        }
        return problems
    }

    /// A whole number of seconds, 0 or more, within the field's bounds.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        if isBlank(answer) { return nil }
        guard answer.numberValue != nil, let seconds = answer.integerValue, seconds >= 0 else {
            return "a duration answer " + Refusal.wrongKind(answer, expected: "a whole number of seconds, 0 or more")
        }
        return boundsProblem(seconds, for: field)
    }

    /// `1h30m`, `90m`, `45s`, `1h 30m 15s`, `01:30:00` (hours:minutes:seconds).
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let expected = "a duration like 1h30m, 90m, 45s or 01:30:00"
        let text = Refusal.trimmed(input).lowercased()
        guard !text.isEmpty else { throw Refusal.blankInput(input, expected: expected) }
        guard let seconds = Self.seconds(text) else {
            let hint = Int(text) != nil ? "add a unit (\(text)s, \(text)m or \(text)h)" : "type \(expected)"
            throw AnswerInputError(input: input, message: "\(Typed.quote(input)) is not a duration; \(hint)")
        }
        if let problem = boundsProblem(seconds, for: field) {
            throw AnswerInputError(input: input, message: "\(Typed.quote(input)): \(problem)")
        }
        return .integer(seconds)
    }

    /// What to type, and the bounds.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        var lines = ["Type how long it took, like 1h30m, 90m, 45s or 01:30:00."]
        switch bounds(field) {
        case let (low?, high?): lines.append("From \(Self.text(low)) to \(Self.text(high)).")
        case let (low?, nil): lines.append("At least \(Self.text(low)).")
        case let (nil, high?): lines.append("At most \(Self.text(high)).")
        case (nil, nil): break
        }
        return lines
    }

    /// `1h 30m`, `45s`, `0s`.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        guard let answer, !isBlank(answer) else { return AnswerDisplay.noAnswer(style) }
        guard answer.numberValue != nil, let seconds = answer.integerValue, seconds >= 0 else {
            return AnswerDisplay.unreadable(answer, style)
        }
        return style.paint(Self.text(seconds), .accent)
    }

    /// `1h 30m 5s` for 5405; `0s` for 0.
    public static func text(_ seconds: Int64) -> String {
        let parts = [(seconds / 3600, "h"), (seconds % 3600 / 60, "m"), (seconds % 60, "s")].filter { $0.0 > 0 }
        return parts.isEmpty ? "0s" : parts.map { "\($0.0)\($0.1)" }.joined(separator: " ")
    }

    /// Seconds in `h:mm:ss` or unit form (`1h30m`, `1h 30m 15s`), or nil.
    static func seconds(_ text: String) -> Int64? {
        let limit: Int64 = 10_000 * 3600
        if text.contains(":") {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 5 && $0.allSatisfy(\.isASCII) }),
                let h = Int64(parts[0]), let m = Int64(parts[1]), let s = Int64(parts[2]),
                h >= 0, (0..<60).contains(m), (0..<60).contains(s), parts[1].count == 2, parts[2].count == 2
            else { return nil }
            let total = h * 3600 + m * 60 + s
            return total <= limit ? total : nil
        }
        var total: Int64 = 0
        var digits = ""
        var used: Set<Character> = []
        var lastRank = -1
        let ranks: [Character: (Int, Int64)] = ["h": (0, 3600), "m": (1, 60), "s": (2, 1)]
        for char in text where char != " " {
            if char.isASCII, char.isNumber {
                digits.append(char)
                guard digits.count <= 7 else { return nil }
            } else if let (rank, factor) = ranks[char], let value = Int64(digits), rank > lastRank,
                used.insert(char).inserted
            {
                total += value * factor
                digits = ""
                lastRank = rank
            } else {
                return nil
            }
        }
        guard digits.isEmpty, !used.isEmpty, total <= limit else { return nil }
        return total
    }

    func boundsProblem(_ seconds: Int64, for field: FieldDefinition) -> String? {
        let (low, high) = bounds(field)
        if let low, seconds < low {
            return "\(Self.text(seconds)) is shorter than the \(Self.text(low)) this field allows at least"
        }
        if let high, seconds > high {
            return "\(Self.text(seconds)) is longer than the \(Self.text(high)) this field allows at most"
        }
        return nil
    }
}
