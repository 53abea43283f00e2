import Models

/// `label`: instructions or explanatory text in the form. Takes no answer.
public struct LabelField: DisplayOnlyFieldType {
    /// Makes the type.
    public init() {}
    /// `"label"`.
    public var name: String { "label" }
    var noun: String { "label" }

    /// The text, on one line.
    func text(for field: FieldDefinition, style: TerminalStyle) -> String {
        OneLine.display(field.displayName, style: style)
    }
}
