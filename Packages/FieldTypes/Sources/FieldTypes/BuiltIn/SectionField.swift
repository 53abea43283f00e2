import Models

/// `section`: a heading that groups the fields after it. Takes no answer.
public struct SectionField: FieldType {
    private let shared = DisplayOnly(noun: "section heading")

    /// Makes the type.
    public init() {}
    /// `"section"`.
    public var name: String { "section" }
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

    /// The heading: `━━ Restrooms ━━` (ASCII: `== Restrooms ==`).
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        let rule = style.pick("\u{2501}\u{2501}", "==")
        let heading = style.paint("\(rule) \(OneLine.display(field.displayName, style: style, limit: 100)) \(rule)", .accent)
        return shared.display(heading, answer: answer, style: style)
    }
}
