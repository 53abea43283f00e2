/// An inspection template: a named, versioned form schema defined by the organisation.
public struct Template: Sendable, Hashable {
    public var id: String
    public var name: String
    public var version: Int
    public var schema: FormSchema
    /// The share of the score (0...1) a report needs to pass; nil when the
    /// template sets none (its reports are scored, never passed or failed).
    public var passThreshold: Double?
    /// The `form_schema` object as received, every key kept, unknown ones included.
    public var rawSchema: JSONValue

    public init(id: String, name: String, version: Int = 1, schema: FormSchema, passThreshold: Double? = nil) {
        self.id = id
        self.name = name
        self.version = version
        self.schema = schema
        self.passThreshold = passThreshold
        self.rawSchema = schema.json
    }

    /// Decodes a template object of `GET /templates`, collecting every problem.
    public static func decode(_ json: JSONValue) -> Result<Template, SchemaErrors> {
        guard let object = json.objectValue else {
            return .failure(
                SchemaErrors([SchemaProblem(message: "a template must be an object, not \(json.kindDescription)")]))
        }
        var problems: [SchemaProblem] = []
        let id = object["id"].flatMap(FieldID.init(json:))?.rawValue
        let label = id.map { "template '\($0)': " } ?? ""
        if id == nil { problems.append(SchemaProblem(message: "a template needs an integer or string 'id'")) }
        let name = object["name"]?.stringValue
        if name == nil { problems.append(SchemaProblem(message: "\(label)'name' must be a string")) }
        var version = 1
        if let v = object["version"], !v.isNull {
            if let i = v.integerValue, let small = Int(exactly: i) {
                version = small
            } else {
                problems.append(SchemaProblem(message: "\(label)'version' must be a whole number"))
            }
        }
        let threshold = passThreshold(object["pass_threshold"], label: label, problems: &problems)
        guard let raw = object["form_schema"] else {
            problems.append(SchemaProblem(message: "\(label)the template has no 'form_schema'"))
            return .failure(SchemaErrors(problems))
        }
        switch FormSchema.decode(raw) {
        case .success(let schema):
            guard problems.isEmpty, let id, let name else { return .failure(SchemaErrors(problems)) }
            var template = Template(id: id, name: name, version: version, schema: schema, passThreshold: threshold)
            template.rawSchema = raw
            return .success(template)
        case .failure(let errors):
            return .failure(SchemaErrors(problems + errors.problems))
        }
    }

    /// `pass_threshold`: absent or null for none, else a number from 0 to 1.
    static func passThreshold(_ value: JSONValue?, label: String, problems: inout [SchemaProblem]) -> Double? {
        guard let value, !value.isNull else { return nil }
        guard let number = value.numberValue, number.isFinite else {
            problems.append(
                SchemaProblem(
                    message: "\(label)'pass_threshold' must be a number from 0 to 1, not \(value.kindDescription)"))
            return nil
        }
        guard (0...1).contains(number) else {
            let hint =
                (1...100).contains(number)
                ? " (write \(JSONValue.double(number / 100).canonicalString()) for \(value.canonicalString())%)" : ""
            problems.append(
                SchemaProblem(
                    message: "\(label)'pass_threshold' is \(value.canonicalString()), but it must be from 0 to 1\(hint)"
                ))
            return nil
        }
        return number
    }

    /// The template as the contract writes it.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(id), "name": .string(name), "version": .integer(Int64(version)), "form_schema": rawSchema,
        ]
        if let passThreshold { members["pass_threshold"] = .double(passThreshold) }
        return .object(members)
    }
}
