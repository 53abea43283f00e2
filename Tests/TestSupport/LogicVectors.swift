import Models

/// One case of `Tests/Fixtures/form-logic/vectors.json`: a template's form,
/// answers, and what the logic must say about them.
public struct LogicVector: Sendable, CustomStringConvertible {
    public var name: String
    public var templateName: String
    public var schema: FormSchema
    public var answers: Answers
    /// Ids of the fields hidden by a condition.
    public var hidden: Set<FieldID>
    /// Ids of the fields that are visible and required.
    public var required: Set<FieldID>
    /// Each calculated field's answer; nil when it has none.
    public var calculated: [FieldID: JSONValue?]
    /// The score ratio; nil when not scored.
    public var score: Double?

    public var description: String { name }

    /// Every vector of the shared file.
    public static func all() throws -> [LogicVector] {
        let document = try Fixtures.json("form-logic/vectors.json")
        let templates = document["templates"]?.objectValue ?? [:]
        return try (document["vectors"]?.arrayValue ?? []).map { item in
            let templateName = item["template"]?.stringValue ?? ""
            guard let raw = templates[templateName] else {
                throw SchemaErrors([SchemaProblem(message: "no template \(templateName)")])
            }
            let schema = try FormSchema.decode(raw).get()
            func ids(_ key: String) -> Set<FieldID> {
                Set((item[key]?.arrayValue ?? []).compactMap(FieldID.init(json:)))
            }
            var calculated: [FieldID: JSONValue?] = [:]
            for (key, value) in item["calculated"]?.objectValue ?? [:] {
                // JSONValue is ExpressibleByNilLiteral, so "no answer" is spelled out.
                calculated[FieldID(key)] = .some(value.isNull ? JSONValue?.none : value)
            }
            return LogicVector(
                name: item["name"]?.stringValue ?? "?", templateName: templateName, schema: schema,
                answers: Answers(json: item["answers"] ?? [:]) ?? Answers(),
                hidden: ids("hidden"), required: ids("required"), calculated: calculated,
                score: item["score"]?.numberValue)
        }
    }

    /// The template the vector's form belongs to, as the server stores it.
    public var template: Template { Template(id: templateName, name: templateName, schema: schema) }
}
