import Models

/// `rating`: stars from 1 to `max` (default 5), stored as an integer; 0 means
/// not rated. Without a `scale` it scores value/max and is never deficient;
/// with one (`RatingScale`) each step scores its percent, and a step marked
/// deficient is a failed answer (what fails a critical rating).
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

    /// `max` within 1...10; `pass_min`, when given, a whole number within
    /// 1...max (an older key that no longer decides anything); `scale`, when
    /// given, as `RatingScale.problems` says.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        if let raw = field.raw["scale"], !raw.isNull {
            problems += RatingScale.problems(raw, max: field.max).map(field.problem)
        }
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
        let steps = RatingScale(field)
        if let step = steps?.step(labelled: text) { return .integer(Int64(step.value)) }
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
        } else if let steps {
            throw AnswerInputError(
                input: input,
                message:
                    "\(OneLine.quote(input)) is not a step of this scale; type a number from 1 to \(scale) or a step's name (\(Self.summary(steps))), or n/a"
            )
        } else {
            throw AnswerInputError(input: input, message: "\(OneLine.quote(input)) is not a rating; type \(expected)")
        }
        guard (0...scale).contains(value) else {
            throw AnswerInputError(input: input, message: "\(OneLine.quote(input)) is out of range; type \(expected)")
        }
        return .integer(Int64(value))
    }

    /// The scale and how to type a rating: each named step with its percent
    /// and whether it is a deficiency, or the stars.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        let scale = scale(field)
        guard let steps = RatingScale(field) else {
            return [
                "Rate from 1 to \(scale) stars: type a number (or \(String(repeating: "*", count: min(4, scale)))); 0 clears; n/a if it does not apply."
            ]
        }
        return ["Type a step's number or its name; 0 clears; n/a if it does not apply."]
            + steps.steps.map { step in
                "  \(step.value)) \(OneLine.display(step.label, style: style, limit: RatingScale.labelLimit)) \(step.percentText)"
                    + (step.deficient ? " " + style.paint("deficient", .warning) : "")
            }
    }

    /// "1 Orderly spotlessness, 2 Ordinary tidiness, ..." for messages.
    static func summary(_ scale: RatingScale) -> String {
        scale.steps.map {
            "\($0.value) \(OneLine.cut(OneLine.flatten($0.label, lineBreak: " "), limit: 30, ellipsis: "..."))"
        }
        .joined(separator: ", ")
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
        if let step = RatingScale(field)?.step(value) {
            return "\(style.paint(OneLine.display(step.label, style: style, limit: RatingScale.labelLimit), .accent)) "
                + "\(value)/\(scale), \(step.percentText)"
        }
        guard scale <= Self.allowedMax.upperBound else { return "\(value)/\(scale)" }
        let filled = String(repeating: style.pick("\u{2605}", "*"), count: value)
        let empty = String(repeating: style.pick("\u{2606}", "-"), count: scale - value)
        let stars = style.unicode ? filled + empty : "[\(filled)\(empty)]"
        return "\(style.paint(stars, .accent)) \(value)/\(scale)"
    }

    /// A scaled answer scores its step's percent and fails on a deficient
    /// step; without a scale value/max, never failing. 0 is unanswered.
    /// Whole-number strings from old clients are read as numbers.
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
        if let step = RatingScale(field)?.step(Int(number)) {
            return .scored(fraction: step.percent / 100, passed: !step.deficient)
        }
        return .scored(fraction: Double(number) / Double(scale), passed: true)
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
