import Models

/// `textarea`: longer free text (notes), stored as a string that may hold line breaks.
public struct TextareaField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"textarea"`.
    public var name: String { "textarea" }
    /// Compares its text exactly; may be calculated from strings.
    public var logicKind: LogicKind? { .text }
    /// A calculated string is stored like typed text.
    public var holdsCalculation: Bool { true }

    /// A JSON string.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        TextAnswer.validate(answer, typeName: name)
    }

    /// The text as typed, line breaks kept, surrounding blank space removed.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        .string(try TextAnswer.parse(input, expected: "the notes"))
    }

    /// How to enter notes.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        ["Type the notes; end a line with \\ to go on typing on the next line (line breaks are kept)."]
    }

    /// The notes on one line, line breaks shown as a marker, long notes cut.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        TextAnswer.display(answer, style: style)
    }

    /// The text as typed.
    public func layout(_ answer: JSONValue, for field: FieldDefinition) -> AnswerLayout {
        .text(answer.stringValue ?? answer.canonicalString())
    }
}
