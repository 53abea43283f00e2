import Models

/// `select`: one of the field's `options` from a menu, stored as the option's
/// text. Not scored (seed §17 scores `radio`, not `select`).
public struct SelectField: FieldType {
    private var choice: SingleChoice { SingleChoice(typeName: name, allowsNotApplicable: false) }

    /// Makes the type.
    public init() {}
    /// `"select"`.
    public var name: String { "select" }

    /// Needs a non-empty list of distinct `options`.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        OptionList.check(field, typeName: name)
    }

    /// One of the options exactly.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        choice.validate(answer, field: field, isBlank: isBlank(answer))
    }

    /// An option's text (any case) or its 1-based number.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError) -> JSONValue {
        try choice.parse(input, field: field)
    }

    /// The numbered options.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        choice.prompt(field: field, style: style)
    }

    /// The chosen option.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        choice.display(answer, field: field, style: style, isBlank: answer.map(isBlank) ?? true)
    }
}
