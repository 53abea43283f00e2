import Models

/// `section`: a heading that groups the fields after it. Takes no answer.
public struct SectionField: DisplayOnlyFieldType {
    /// Makes the type.
    public init() {}
    /// `"section"`.
    public var name: String { "section" }
    /// A heading: its `visible_when` covers the fields up to the next one.
    public var startsSection: Bool { true }
    var noun: String { "section heading" }

    /// The heading: `━━ Restrooms ━━` (ASCII: `== Restrooms ==`).
    func text(for field: FieldDefinition, style: TerminalStyle) -> String {
        let rule = style.pick("\u{2501}\u{2501}", "==")
        return style.paint("\(rule) \(OneLine.display(field.displayName, style: style, limit: 100)) \(rule)", .accent)
    }
}
