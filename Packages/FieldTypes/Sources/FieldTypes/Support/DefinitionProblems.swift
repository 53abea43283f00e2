import Models

extension FieldDefinition {
    /// A definition problem located at this field.
    public func problem(_ message: String) -> SchemaProblem {
        SchemaProblem(fieldID: id, message: message)
    }

    /// The label quoted for messages, or the field id when there is none.
    var quotedName: String {
        OneLine.quote(displayName)
    }
}
