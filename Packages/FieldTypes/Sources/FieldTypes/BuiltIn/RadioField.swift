import Models

/// `radio`: one of the field's `options`, stored as the option's text.
/// Scored (seed §17): an answer that is a pass keyword (`pass yes ok good
/// acceptable compliant`) passes; any other answer fails.
public struct RadioField: SingleChoiceFieldType {
    /// Makes the type.
    public init() {}
    /// `"radio"`.
    public var name: String { "radio" }
    /// Scored with the pass keywords.
    public var isScoreable: Bool { true }
    /// Compares the chosen option's text.
    public var logicKind: LogicKind? { .text }
    /// `n/a` is an answer: the field is left out of the score.
    var allowsNotApplicable: Bool { true }

    /// A pass keyword scores 1 and passes, any other string 0 and fails.
    public func score(_ answer: JSONValue?, for field: FieldDefinition) -> FieldScore {
        KeywordScore.score(answer, isBlank: answer.map(isBlank) ?? true, typeName: name)
    }
}
