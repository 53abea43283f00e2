import Models

/// What `section` and `label` share: text shown in the form that takes no
/// answer. A conforming type names itself and draws its text; everything else
/// (definition checks, refusing answers and input) comes from here.
protocol DisplayOnlyFieldType: FieldType {
    /// `"section heading"` or `"label"`, for messages.
    var noun: String { get }
    /// The text drawn for the field, before any stray answer is added.
    func text(for field: FieldDefinition, style: TerminalStyle) -> String
}

extension DisplayOnlyFieldType {
    /// Display only.
    public var isAnswerable: Bool { false }
    /// Nothing to copy.
    public var copiesOnReinspection: Bool { false }

    /// Needs a label; cannot be required.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        if Refusal.trimmed(field.label).isEmpty {
            problems.append(field.problem("a \(name) field shows its 'label' and has none; add the text to show"))
        }
        if field.required {
            problems.append(
                field.problem("a \(name) field takes no answer, so it cannot be required; remove 'required'"))
        }
        return problems
    }

    /// Every answer is refused.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        "\(field.messageName) is a \(noun) and takes no answer; remove the answer (\(Refusal.describe(answer)))"
    }

    /// Every input is refused.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        throw AnswerInputError(
            input: input, message: "\(OneLine.quote(field.displayName)) is a \(noun); it takes no answer")
    }

    /// Nothing to type.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] { [] }

    /// The text, plus any stray answer so that nothing is hidden.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        let text = text(for: field, style: style)
        guard let answer, !answer.isNull else { return text }
        return text + " "
            + style.paint(
                "(unexpected answer: \(OneLine.display(answer.canonicalString(), style: style, limit: 60)))", .warning)
    }
}
