import Models

/// One field's logic keys, parsed.
struct FieldRules: Sendable {
    var visibleWhen: Condition?
    var requiredWhen: Condition?
    var calculate: Expression?
    /// Why this build cannot evaluate the field's logic (an unknown operator,
    /// a malformed key), or nil. Such a field is shown as unsupported: its
    /// own conditions and calculation are ignored, its answer kept verbatim.
    var unsupported: String?

    init(_ field: FieldDefinition) {
        visibleWhen = field.raw["visible_when"].flatMap { $0.isNull ? nil : Condition(json: $0) }
        requiredWhen = field.raw["required_when"].flatMap { $0.isNull ? nil : Condition(json: $0) }
        calculate = field.raw["calculate"].flatMap { $0.isNull ? nil : Expression(json: $0) }
        let unknown =
            (visibleWhen?.unknownOperators ?? []) + (requiredWhen?.unknownOperators ?? [])
            + (calculate?.unknownOperators ?? [])
        let malformed =
            (visibleWhen?.malformations ?? []) + (requiredWhen?.malformations ?? []) + (calculate?.malformations ?? [])
        if let name = unknown.first {
            unsupported = "its logic uses operator \(quoted(name)), which this version of jqc does not know"
        } else if !malformed.isEmpty {
            unsupported = "its logic is malformed (\(malformed[0]))"
        }
    }

    /// True when the field has any logic key.
    var isEmpty: Bool { visibleWhen == nil && requiredWhen == nil && calculate == nil }
}
