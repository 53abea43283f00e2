import Models

/// What `section` and `label` share: text shown in the form that takes no answer.
struct DisplayOnly {
    /// `"section heading"` or `"label"`, for messages.
    let noun: String

    func checkDefinition(_ field: FieldDefinition, typeName: String) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        if Refusal.trimmed(field.label).isEmpty {
            problems.append(field.problem("a \(typeName) field shows its 'label' and has none; add the text to show"))
        }
        if field.required {
            problems.append(field.problem("a \(typeName) field takes no answer, so it cannot be required; remove 'required'"))
        }
        return problems
    }

    func validate(_ answer: JSONValue, field: FieldDefinition) -> String? {
        "\(field.messageName) is a \(noun) and takes no answer; remove the answer (\(Refusal.describe(answer)))"
    }

    func refusal(_ input: String, field: FieldDefinition) -> AnswerInputError {
        AnswerInputError(input: input, message: "\(OneLine.quote(field.displayName)) is a \(noun); it takes no answer")
    }

    /// The heading text, plus any stray answer so that nothing is hidden.
    func display(_ text: String, answer: JSONValue?, style: TerminalStyle) -> String {
        guard let answer, !answer.isNull else { return text }
        return text + " " + style.paint("(unexpected answer: \(OneLine.display(answer.canonicalString(), style: style, limit: 60)))", .warning)
    }
}
