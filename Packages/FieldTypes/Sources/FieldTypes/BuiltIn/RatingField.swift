import Models

/// `rating`: stars from 1 to `max` (default 5), stored as an integer; 0 means
/// not rated. Scored value/max; a rating passes at `pass_min` or above
/// (default 60% of the scale, rounded up), which is what a critical rating needs.
public struct RatingField: FieldType {
    /// The scale when the field gives no `max`.
    public static let defaultMax = 5
    /// The scales a template may ask for.
    public static let allowedMax = 1...10

    /// Makes the type.
    public init() {}
    /// `"rating"`.
    public var name: String { "rating" }
    /// Scored value/max.
    public var isScoreable: Bool { true }
    /// A re-inspection rates again.
    public var copiesOnReinspection: Bool { false }
    /// Compares its number of stars.
    public var logicKind: LogicKind? { .number }
    /// A calculated rating must still fit the scale.
    public var holdsCalculation: Bool { true }

    /// The field's scale: its `max`, or 5 when it has none or a nonsensical one.
    public func scale(_ field: FieldDefinition) -> Int {
        if let max = field.max, max >= 1 { return max }
        return Self.defaultMax
    }

    /// The lowest passing rating: the field's `pass_min` when it is within
    /// 1...max, else 60% of the scale rounded up (3 of 5, 6 of 10).
    public func passMinimum(_ field: FieldDefinition) -> Int {
        let scale = scale(field)
        if let raw = field.raw["pass_min"]?.integerValue, let value = Int(exactly: raw), (1...scale).contains(value) {
            return value
        }
        return (6 * scale + 9) / 10
    }

    /// `max` within 1...10; `pass_min`, when given, a whole number within 1...max.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        if let max = field.max, !Self.allowedMax.contains(max) {
            problems.append(
                field.problem("'max' is \(max), but a rating scale must be from 1 to 10 (default 5); change 'max'"))
        }
        if let raw = field.raw["pass_min"], !raw.isNull {
            let scale = scale(field)
            if !(raw.integerValue.flatMap { Int(exactly: $0) }.map { (1...scale).contains($0) } ?? false) {
                problems.append(
                    field.problem(
                        "'pass_min' must be a whole number from 1 to \(scale) (the lowest passing rating), not \(Refusal.describe(raw)); change it or remove it"
                    ))
            }
        }
        return problems
    }

    /// Blank as usual, and also the rating 0 (not rated).
    public func isBlank(_ answer: JSONValue) -> Bool {
        if answer.integerValue == 0 { return true }
        switch answer {
        case .null: return true
        case .string(let s): return Refusal.trimmed(s).isEmpty
        default: return false
        }
    }

    /// A whole number from 0 to max, or `"N/A"`.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        let scale = scale(field)
        if case .string(let text) = answer, text == NotApplicable.encoded || isBlank(answer) { return nil }
        guard answer.numberValue != nil, let value = answer.integerValue else {
            return "a rating " + Refusal.wrongKind(answer, expected: "a whole number from 0 to \(scale) (or \"N/A\")")
        }
        return (0...Int64(scale)).contains(value)
            ? nil : "the rating \(value) is out of range; it must be from 0 to \(scale)"
    }

    /// `4`, `4/5`, stars (`****`, `★★★★☆`, `[****-]`), `0` to clear, or `n/a`.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let scale = scale(field)
        let expected =
            "a whole number from 1 to \(scale) (or \(min(4, scale))/\(scale), \(String(repeating: "*", count: min(4, scale)))), 0 to clear the rating, or n/a"
        let text = Refusal.trimmed(input)
        guard !text.isEmpty else { throw Refusal.blankInput(input, expected: expected) }
        if NotApplicable.isTyped(text) { return NotApplicable.answer }
        let value: Int
        if let stars = Self.stars(text) {
            value = stars
        } else if let slash = text.firstIndex(of: "/") {
            let over = Refusal.trimmed(String(text[text.index(after: slash)...]))
            guard let top = Int(Refusal.trimmed(String(text[..<slash]))), let bottom = Int(over) else {
                throw AnswerInputError(
                    input: input, message: "\(OneLine.quote(input)) is not a rating; type \(expected)")
            }
            guard bottom == scale else {
                throw AnswerInputError(
                    input: input,
                    message:
                        "\(OneLine.quote(input)) is out of \(bottom), but this rating is out of \(scale); type \(min(top, scale))/\(scale) or \(expected)"
                )
            }
            value = top
        } else if let number = Int(text) {
            value = number
        } else {
            throw AnswerInputError(input: input, message: "\(OneLine.quote(input)) is not a rating; type \(expected)")
        }
        guard (0...scale).contains(value) else {
            throw AnswerInputError(input: input, message: "\(OneLine.quote(input)) is out of range; type \(expected)")
        }
        return .integer(Int64(value))
    }

    /// The scale and how to type a rating.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        let scale = scale(field)
        return [
            "Rate from 1 to \(scale) stars: type a number (or \(String(repeating: "*", count: min(4, scale)))); 0 clears; n/a if it does not apply.",
            "Passes at \(passMinimum(field)) or more.",
        ]
    }

    /// Stars and the value: `★★★★☆ 4/5`, or `[****-] 4/5` in ASCII; only the
    /// value on scales above 10.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        guard let answer, !isBlank(answer) else { return AnswerDisplay.noAnswer(style) }
        if NotApplicable.isAnswer(answer) { return AnswerDisplay.notApplicable(style) }
        let scale = scale(field)
        guard answer.numberValue != nil, let raw = answer.integerValue, (1...Int64(scale)).contains(raw) else {
            return AnswerDisplay.unreadable(answer, style)
        }
        let value = Int(raw)
        guard scale <= Self.allowedMax.upperBound else { return "\(value)/\(scale)" }
        let filled = String(repeating: style.pick("\u{2605}", "*"), count: value)
        let empty = String(repeating: style.pick("\u{2606}", "-"), count: scale - value)
        let stars = style.unicode ? filled + empty : "[\(filled)\(empty)]"
        return "\(style.paint(stars, .accent)) \(value)/\(scale)"
    }

    /// value/max, passing at `pass_min` or above; 0 is unanswered. Whole-number
    /// strings from old clients are read as numbers.
    public func score(_ answer: JSONValue?, for field: FieldDefinition) -> FieldScore {
        guard let answer, !isBlank(answer) else { return .unanswered }
        if NotApplicable.isAnswer(answer) { return .notApplicable }
        let scale = scale(field)
        let number: Int64?
        switch answer {
        case .integer, .double: number = answer.integerValue
        case .string(let text): number = Int64(Refusal.trimmed(text))
        default: number = nil
        }
        guard let number else {
            return .unreadable("a rating must be a whole number from 0 to \(scale), not \(Refusal.describe(answer))")
        }
        guard (1...Int64(scale)).contains(number) else {
            return number == 0 ? .unanswered : .unreadable("the rating \(number) is outside 0 to \(scale)")
        }
        return .scored(fraction: Double(number) / Double(scale), passed: Int(number) >= passMinimum(field))
    }

    /// The number of filled stars in typed star text (`****`, `★★★☆☆`,
    /// `[***--]`), or nil when the text is not stars.
    static func stars(_ text: String) -> Int? {
        var body = Substring(text)
        if body.hasPrefix("["), body.hasSuffix("]"), body.count >= 2 { body = body.dropFirst().dropLast() }
        let filled: Set<Character> = ["*", "\u{2605}"]
        let empty: Set<Character> = ["-", "\u{2606}"]
        guard !body.isEmpty, body.allSatisfy({ filled.contains($0) || empty.contains($0) }),
            body.contains(where: { filled.contains($0) || $0 == "\u{2606}" })
        else { return nil }
        return body.filter { filled.contains($0) }.count
    }
}
