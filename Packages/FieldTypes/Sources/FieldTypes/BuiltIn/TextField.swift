import Models

/// `text`: a short free-text answer, stored as a string.
public struct TextField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"text"`.
    public var name: String { "text" }
    /// Compares its text exactly; may be calculated from strings.
    public var logicKind: LogicKind? { .text }
    /// A calculated string is stored like typed text.
    public var holdsCalculation: Bool { true }

    /// A JSON string.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        TextAnswer.validate(answer, typeName: name)
    }

    /// The text as typed, without surrounding spaces.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        .string(try TextAnswer.parse(input, expected: "the text"))
    }

    /// "Type the answer."
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        ["Type the answer."]
    }

    /// The text on one line.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        TextAnswer.display(answer, style: style)
    }

    /// The text as typed.
    public func layout(_ answer: JSONValue, for field: FieldDefinition) -> AnswerLayout {
        .text(answer.stringValue ?? answer.canonicalString())
    }
}
