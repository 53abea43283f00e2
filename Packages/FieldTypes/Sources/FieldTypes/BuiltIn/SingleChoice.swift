import Models

/// What `radio` and `select` share: one option, stored as its text.
struct SingleChoice {
    let typeName: String
    /// Whether typed `n/a` and the answer `"N/A"` are accepted (scoreable types only).
    let allowsNotApplicable: Bool

    func validate(_ answer: JSONValue, field: FieldDefinition, isBlank: Bool) -> String? {
        guard case .string(let text) = answer else {
            return "a \(typeName) answer " + Refusal.wrongKind(answer, expected: "one of the options as a string")
        }
        let options = OptionList(field)
        if isBlank || options.contains(text) || (allowsNotApplicable && text == NotApplicable.encoded) { return nil }
        return "\(OneLine.quote(text)) is not one of the options (\(options.summary))"
    }

    func parse(_ input: String, field: FieldDefinition) throws(AnswerInputError) -> JSONValue {
        let options = OptionList(field)
        let expected = "an option's text or number (\(options.summary))"
        guard !Refusal.trimmed(input).isEmpty else { throw Refusal.blankInput(input, expected: expected) }
        if let option = options.match(input) { return .string(option) }
        if allowsNotApplicable, NotApplicable.isTyped(input) { return NotApplicable.answer }
        let notApplicable = allowsNotApplicable ? ", or n/a" : ""
        throw AnswerInputError(
            input: input, message: "\(OneLine.quote(input)) is not one of the options; type \(expected)\(notApplicable)"
        )
    }

    func prompt(field: FieldDefinition, style: TerminalStyle) -> [String] {
        var lines = ["Choose one: type its number or its text."] + OptionList(field).numberedLines(style)
        if allowsNotApplicable { lines.append("  (n/a if it does not apply)") }
        return lines
    }

    func display(_ answer: JSONValue?, field: FieldDefinition, style: TerminalStyle, isBlank: Bool) -> String {
        guard let answer, !isBlank else { return AnswerDisplay.noAnswer(style) }
        if allowsNotApplicable, NotApplicable.isAnswer(answer) { return AnswerDisplay.notApplicable(style) }
        guard case .string(let text) = answer else { return AnswerDisplay.unreadable(answer, style) }
        return AnswerDisplay.text(text, style)
    }
}

/// A field type whose answer is one of the field's options (`radio`, `select`):
/// the definition check, validation, typed input, prompt and display come from here.
protocol SingleChoiceFieldType: FieldType {
    /// Whether `n/a` is a valid answer (scoreable types only).
    var allowsNotApplicable: Bool { get }
}

extension SingleChoiceFieldType {
    private var choice: SingleChoice { SingleChoice(typeName: name, allowsNotApplicable: allowsNotApplicable) }

    /// Needs a non-empty list of distinct `options`.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        OptionList.check(field, typeName: name)
    }

    /// One of the options exactly (or `"N/A"` where allowed).
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        choice.validate(answer, field: field, isBlank: isBlank(answer))
    }

    /// An option's text (any case) or its 1-based number (or `n/a` where allowed).
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
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
