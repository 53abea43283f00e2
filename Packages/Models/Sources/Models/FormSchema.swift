/// A template's form: its fields in order.
public struct FormSchema: Sendable, Hashable {
    public var fields: [FieldDefinition]

    public init(fields: [FieldDefinition]) { self.fields = fields }

    /// The field with this id.
    public func field(_ id: FieldID) -> FieldDefinition? {
        fields.first { $0.id == id }
    }

    /// Decodes `{"fields": [...]}`, collecting every problem: each field's own,
    /// and ids used twice (answers are keyed by id, so a duplicate would make
    /// two questions share one answer).
    public static func decode(_ json: JSONValue) -> Result<FormSchema, SchemaErrors> {
        guard let object = json.objectValue else {
            return .failure(
                SchemaErrors([
                    SchemaProblem(
                        message: "the form schema must be an object with a 'fields' list, not \(json.kindDescription)")
                ]))
        }
        guard let list = object["fields"] else {
            return .failure(SchemaErrors([SchemaProblem(message: "the form schema has no 'fields' list")]))
        }
        guard let items = list.arrayValue else {
            return .failure(
                SchemaErrors([SchemaProblem(message: "'fields' must be a list, not \(list.kindDescription)")]))
        }
        var fields: [FieldDefinition] = []
        var problems: [SchemaProblem] = []
        var seen: [FieldID: Int] = [:]
        for (index, item) in items.enumerated() {
            let decoded = FieldDefinition.decode(item, index: index)
            switch decoded {
            case .success(let field): fields.append(field)
            case .failure(let errors): problems += errors.problems
            }
            // A field with other problems may repeat an id too: say so in the same pass.
            guard let id = item.objectValue?["id"].flatMap(FieldID.init(json:)) else { continue }
            if let first = seen[id] {
                problems.append(
                    SchemaProblem(
                        fieldIndex: index, fieldID: id,
                        message: "the id is already used by field #\(first + 1); give each field its own id"))
            } else {
                seen[id] = index
            }
        }
        return problems.isEmpty ? .success(FormSchema(fields: fields)) : .failure(SchemaErrors(problems))
    }

    /// The schema as `{"fields": [...]}`.
    public var json: JSONValue { .object(["fields": .array(fields.map(\.json))]) }
}
