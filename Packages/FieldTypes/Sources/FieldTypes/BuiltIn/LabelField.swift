import Models

/// `label`: instructions or explanatory text in the form. Takes no answer.
public struct LabelField: FieldType {
    private let shared = DisplayOnly(noun: "label")

    /// Makes the type.
    public init() {}
    /// `"label"`.
    public var name: String { "label" }
    /// Display only.
    public var isAnswerable: Bool { false }
    /// Nothing to copy.
    public var copiesOnReinspection: Bool { false }

    /// Needs a label; cannot be required.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        shared.checkDefinition(field, typeName: name)
    }

    /// Every answer is refused.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        shared.validate(answer, field: field)
    }

    /// Every input is refused.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError) -> JSONValue {
        throw shared.refusal(input, field: field)
    }

    /// Nothing to type.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] { [] }

    /// The text, on one line.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        shared.display(OneLine.display(field.displayName, style: style), answer: answer, style: style)
    }
}
