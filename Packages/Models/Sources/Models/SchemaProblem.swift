/// One thing wrong with a template's form schema, located by field.
public struct SchemaProblem: Sendable, Hashable, CustomStringConvertible {
    /// Position of the field in the schema's `fields` list, when the problem is in a field.
    public var fieldIndex: Int?
    /// The field's id, when it could be read.
    public var fieldID: FieldID?
    /// What is wrong and how to fix it.
    public var message: String

    public init(fieldIndex: Int? = nil, fieldID: FieldID? = nil, message: String) {
        self.fieldIndex = fieldIndex
        self.fieldID = fieldID
        self.message = message
    }

    /// "field 'q1': ..." or "field #3: ..." or the bare message.
    public var description: String {
        if let fieldID { return "field '\(fieldID)': \(message)" }
        if let fieldIndex { return "field #\(fieldIndex + 1): \(message)" }
        return message
    }
}
