import Models

/// `radio`: one of the field's `options`, stored as the option's text.
/// Scored (seed §17): an answer that is a pass keyword (`pass yes ok good
/// acceptable compliant`) passes; any other answer fails.
public struct RadioField: FieldType {
    private var choice: SingleChoice { SingleChoice(typeName: name, allowsNotApplicable: true) }

    /// Makes the type.
    public init() {}
    /// `"radio"`.
    public var name: String { "radio" }
    /// Scored with the pass keywords.
    public var isScoreable: Bool { true }

    /// Needs a non-empty list of distinct `options`.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        OptionList.check(field, typeName: name)
    }

    /// One of the options exactly, or `"N/A"`.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        choice.validate(answer, field: field, isBlank: isBlank(answer))
    }

    /// An option's text (any case) or its 1-based number, or `n/a`.
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

    /// A pass keyword scores 1 and passes, any other string 0 and fails.
    public func score(_ answer: JSONValue?, for field: FieldDefinition) -> FieldScore {
        KeywordScore.score(answer, isBlank: answer.map(isBlank) ?? true, typeName: name)
    }
}
