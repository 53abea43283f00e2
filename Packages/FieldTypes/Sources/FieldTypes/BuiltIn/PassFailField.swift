import Models

/// `pass_fail`: a pass or a fail, stored as `"pass"` or `"fail"`.
///
/// Validation is strict (`"pass"`, `"fail"` or `"N/A"`); scoring is lenient
/// for data from elsewhere: any pass keyword passes, any other string fails.
public struct PassFailField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"pass_fail"`.
    public var name: String { "pass_fail" }
    /// Scored with the pass keywords.
    public var isScoreable: Bool { true }
    /// A re-inspection judges again.
    public var copiesOnReinspection: Bool { false }
    /// Compares its keyword, `"pass"` or `"fail"`.
    public var logicKind: LogicKind? { .text }
    /// A calculated `"pass"`/`"fail"` is scored like a typed one.
    public var holdsCalculation: Bool { true }

    /// `"pass"`, `"fail"` or `"N/A"`.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        guard case .string(let text) = answer else {
            return "a pass/fail answer " + Refusal.wrongKind(answer, expected: "\"pass\", \"fail\" or \"N/A\"")
        }
        if isBlank(answer) || ["pass", "fail", NotApplicable.encoded].contains(text) { return nil }
        return "a pass/fail answer must be \"pass\", \"fail\" or \"N/A\", not \(OneLine.quote(text))"
    }

    /// `pass`/`p`, `fail`/`f` (any case), or `n/a`.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let word = Refusal.trimmed(input).lowercased()
        guard !word.isEmpty else { throw Refusal.blankInput(input, expected: "pass or fail") }
        switch word {
        case "pass", "p": return .string("pass")
        case "fail", "f": return .string("fail")
        case _ where NotApplicable.isTyped(word): return NotApplicable.answer
        default:
            throw AnswerInputError(
                input: input, message: "\(OneLine.quote(input)) is not pass or fail; type pass (p), fail (f) or n/a")
        }
    }

    /// What to type.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        ["Type pass or fail (p/f; n/a if it does not apply)."]
    }

    /// `✓ pass` / `✗ fail` (ASCII: `pass` / `fail`); other strings shown with how they score.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        guard let answer, !isBlank(answer) else { return AnswerDisplay.noAnswer(style) }
        if NotApplicable.isAnswer(answer) { return AnswerDisplay.notApplicable(style) }
        guard case .string(let text) = answer else { return AnswerDisplay.unreadable(answer, style) }
        let passes = PassKeywords.passes(text)
        let verdict =
            passes
            ? style.paint(style.pick("\u{2713} pass", "pass"), .good)
            : style.paint(style.pick("\u{2717} fail", "fail"), .bad)
        return text == "pass" || text == "fail"
            ? verdict : "\(verdict) (\(OneLine.display(text, style: style, limit: 40)))"
    }

    /// A pass keyword scores 1 and passes, any other string 0 and fails.
    public func score(_ answer: JSONValue?, for field: FieldDefinition) -> FieldScore {
        KeywordScore.score(answer, isBlank: answer.map(isBlank) ?? true, typeName: name)
    }
}
