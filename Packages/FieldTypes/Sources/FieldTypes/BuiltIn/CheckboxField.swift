import Models

/// `checkbox`: a yes/no tick, stored as a JSON boolean. Scored: ticked passes.
///
/// Old clients sent the strings `"true"` and `"false"`; both are read. When
/// scoring, any other string counts as a fail, as the seed's scorer did.
public struct CheckboxField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"checkbox"`.
    public var name: String { "checkbox" }
    /// Scored: true passes, false fails.
    public var isScoreable: Bool { true }
    /// Compares its tick as true or false.
    public var logicKind: LogicKind? { .bool }
    /// A calculated tick is scored like a typed one.
    public var holdsCalculation: Bool { true }

    /// The tick, reading the old clients' `"true"`/`"false"` too.
    public func logicValue(of answer: JSONValue, for field: FieldDefinition) -> LogicValue? {
        switch answer {
        case .bool(let b): return .bool(b)
        case .string(let s) where s == "true" || s == "false": return .bool(s == "true")
        default: return nil
        }
    }

    /// true, false, the old clients' `"true"`/`"false"`, or `"N/A"`.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        switch answer {
        case .bool: return nil
        case .string(let s) where s == "true" || s == "false" || s == NotApplicable.encoded: return nil
        case _ where isBlank(answer): return nil
        default: return "a checkbox answer " + Refusal.wrongKind(answer, expected: "true or false (or \"N/A\")")
        }
    }

    /// `yes y true 1 x` tick it, `no n false 0` leave it unticked, `n/a` excludes it.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let word = Refusal.trimmed(input).lowercased()
        guard !word.isEmpty else { throw Refusal.blankInput(input, expected: "yes or no") }
        if ["yes", "y", "true", "1", "x"].contains(word) { return .bool(true) }
        if ["no", "n", "false", "0"].contains(word) { return .bool(false) }
        if NotApplicable.isTyped(word) { return NotApplicable.answer }
        throw AnswerInputError(
            input: input,
            message:
                "\(OneLine.quote(input)) is not a checkbox answer; type yes or no (also y/n, true/false, 1/0, x), or n/a"
        )
    }

    /// What to type.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        ["Type yes or no (n/a if it does not apply)."]
    }

    /// A ticked or empty box.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        guard let answer, !isBlank(answer) else { return AnswerDisplay.noAnswer(style) }
        if NotApplicable.isAnswer(answer) { return AnswerDisplay.notApplicable(style) }
        switch Self.reading(answer) {
        case true?: return style.paint(style.pick("\u{2611} yes", "[x] yes"), .good)
        case false?:
            let box = style.paint(style.pick("\u{2610} no", "[ ] no"), .bad)
            if case .string(let s) = answer, s != "false" {
                return box + " (\(OneLine.display(s, style: style, limit: 40)))"
            }
            return box
        case nil: return AnswerDisplay.unreadable(answer, style)
        }
    }

    /// Ticked passes (fraction 1), unticked fails (0); other strings fail;
    /// numbers, lists and objects are unreadable.
    public func score(_ answer: JSONValue?, for field: FieldDefinition) -> FieldScore {
        guard let answer, !isBlank(answer) else { return .unanswered }
        if NotApplicable.isAnswer(answer) { return .notApplicable }
        switch Self.reading(answer) {
        case true?: return .scored(fraction: 1, passed: true)
        case false?: return .scored(fraction: 0, passed: false)
        case nil: return .unreadable("a checkbox answer must be true or false, not \(Refusal.describe(answer))")
        }
    }

    /// True or false for a boolean or a string (only `"true"`, any case, is
    /// true); nil for other JSON kinds.
    static func reading(_ answer: JSONValue) -> Bool? {
        switch answer {
        case .bool(let b): return b
        case .string(let s): return Refusal.trimmed(s).lowercased() == "true"
        default: return nil
        }
    }
}
