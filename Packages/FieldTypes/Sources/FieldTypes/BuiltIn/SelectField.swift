import Models

/// `select`: one of the field's `options` from a menu, stored as the option's
/// text. Not scored (seed §17 scores `radio`, not `select`).
public struct SelectField: SingleChoiceFieldType {
    /// Makes the type.
    public init() {}
    /// `"select"`.
    public var name: String { "select" }
    /// Compares the chosen option's text.
    public var logicKind: LogicKind? { .text }
    var allowsNotApplicable: Bool { false }
}
