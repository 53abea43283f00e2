import Models

/// Stands in for a field type this version does not know (a newer server's
/// `geopoint`, say). It never crashes and never loses data: any answer is
/// accepted and kept verbatim, shown as unsupported, and typing is refused
/// with a message naming the type. A required unsupported field with no
/// answer blocks completion (see `FieldTypeRegistry.completionProblems`).
public struct UnsupportedFieldType: FieldType {
    /// The type name as the template wrote it.
    public let name: String

    /// Stands in for the type called `name`.
    public init(name: String) { self.name = name }

    /// Its meaning is unknown, so a re-inspection does not assume the old
    /// answer still holds.
    public var copiesOnReinspection: Bool { false }

    /// Any JSON: it is kept verbatim.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? { nil }

    /// Refused, naming the type.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        throw AnswerInputError(
            input: input,
            message:
                "\(OneLine.quote(input)) cannot be read: \(Self.unsupported(field)); update jqc to answer it, or set its JSON with --value-json"
        )
    }

    /// Says the type is unsupported.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        [
            "This field uses field type \(OneLine.quote(name)), which this version of jqc does not support; update jqc to answer it."
        ]
    }

    /// `unsupported field type 'geopoint': {"lat":1}` (the kept answer), or `(no answer)`.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        let head = style.paint("unsupported field type \(OneLine.quote(name))", .warning)
        guard let answer, !isBlank(answer) else { return "\(head) (no answer)" }
        return "\(head): \(OneLine.display(answer.canonicalString(), style: style, limit: 120))"
    }

    /// `field 'q9' uses field type 'geo', which this version of jqc does not support`.
    static func unsupported(_ field: FieldDefinition) -> String {
        "field \(OneLine.quote(field.id.rawValue)) uses field type \(OneLine.quote(field.type)), which this version of jqc does not support"
    }
}
