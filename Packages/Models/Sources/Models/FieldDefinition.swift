/// One field of a form schema: the keys every field type shares, decoded and
/// type-checked, plus the whole raw object so that a field type can read keys
/// of its own (a temperature's unit, a barcode's pattern).
public struct FieldDefinition: Sendable, Hashable {
    // Each typed property writes itself into `raw` when set, so the object a
    // field type reads and the one sent on are never older than the property.
    public var id: FieldID { didSet { raw["id"] = .string(id.rawValue) } }
    /// The type name as the server wrote it; may be one this client does not know.
    public var type: String { didSet { raw["type"] = .string(type) } }
    public var label: String { didSet { raw["label"] = .string(label) } }
    public var required: Bool { didSet { raw["required"] = required ? .bool(true) : nil } }
    public var options: [String]? { didSet { raw["options"] = options.map { .array($0.map { .string($0) }) } } }
    /// Rating scale; `nil` means the type's default.
    public var max: Int? { didSet { raw["max"] = max.map { .integer(Int64($0)) } } }
    public var columns: [String]? { didSet { raw["columns"] = columns.map { .array($0.map { .string($0) }) } } }
    /// Weight in the score; `nil` means 1.
    public var weight: Double? { didSet { raw["weight"] = weight.map { .double($0) } } }
    public var critical: Bool { didSet { raw["critical"] = critical ? .bool(true) : nil } }
    public var col: Int? { didSet { raw["col"] = col.map { .integer(Int64($0)) } } }
    public var row: Int? { didSet { raw["row"] = row.map { .integer(Int64($0)) } } }
    public var colSpan: Int? { didSet { raw["col_span"] = colSpan.map { .integer(Int64($0)) } } }
    public var rowSpan: Int? { didSet { raw["row_span"] = rowSpan.map { .integer(Int64($0)) } } }
    /// Every key of the field object as received, unknown ones included; the
    /// typed properties above are the only way to change a shared key.
    public private(set) var raw: [String: JSONValue]

    /// Makes a definition in code (tests, fixtures, field-type authors).
    public init(
        id: FieldID, type: String, label: String = "", required: Bool = false,
        options: [String]? = nil, max: Int? = nil, columns: [String]? = nil,
        weight: Double? = nil, critical: Bool = false,
        col: Int? = nil, row: Int? = nil, colSpan: Int? = nil, rowSpan: Int? = nil,
        extra: [String: JSONValue] = [:]
    ) {
        self.id = id
        self.type = type
        self.label = label
        self.required = required
        self.options = options
        self.max = max
        self.columns = columns
        self.weight = weight
        self.critical = critical
        self.col = col
        self.row = row
        self.colSpan = colSpan
        self.rowSpan = rowSpan
        var raw = extra
        raw["id"] = .string(id.rawValue)
        raw["type"] = .string(type)
        raw["label"] = .string(label)
        if required { raw["required"] = .bool(true) }
        if let options { raw["options"] = .array(options.map { .string($0) }) }
        if let max { raw["max"] = .integer(Int64(max)) }
        if let columns { raw["columns"] = .array(columns.map { .string($0) }) }
        if let weight { raw["weight"] = .double(weight) }
        if critical { raw["critical"] = .bool(true) }
        for (key, value) in [("col", col), ("row", row), ("col_span", colSpan), ("row_span", rowSpan)] {
            if let value { raw[key] = .integer(Int64(value)) }
        }
        self.raw = raw
    }

    /// True when the template marks the field `private` (contract 1.2): its
    /// answer, photos and comments reach nobody with the `client` role.
    public var isPrivate: Bool { raw["private"]?.boolValue == true }

    /// The weight the score uses: the field's `weight`, or 1.
    public var effectiveWeight: Double { weight ?? 1 }

    /// The label, or the id when the template gave no label.
    public var displayName: String { label.isEmpty ? "field \(id)" : label }

    /// Decodes one field object, collecting every problem rather than the first.
    /// `index` is the field's position, used to name it when its id is unreadable.
    public static func decode(_ json: JSONValue, index: Int) -> Result<FieldDefinition, SchemaErrors> {
        guard let object = json.objectValue else {
            return .failure(
                SchemaErrors([
                    SchemaProblem(fieldIndex: index, message: "a field must be an object, not \(json.kindDescription)")
                ]))
        }
        var problems: [SchemaProblem] = []
        let id = object["id"].flatMap(FieldID.init(json:))
        func problem(_ message: String) {
            problems.append(SchemaProblem(fieldIndex: index, fieldID: id, message: message))
        }
        if id == nil {
            problem(
                object["id"] == nil
                    ? "the field has no 'id'; give it an integer or string id"
                    : "'id' must be an integer or a non-empty string, not \(object["id"]!.kindDescription)")
        }
        var type = ""
        switch object["type"] {
        case .string(let s) where !s.isEmpty: type = s
        case .string: problem("'type' is empty; name one, for example \"text\"")
        case nil: problem("the field has no 'type'; name one, for example \"text\"")
        case let other?: problem("'type' must be a non-empty string, not \(other.kindDescription)")
        }
        func string(_ key: String) -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let s)?: return s
            case let other?: problem("'\(key)' must be a string, not \(other.kindDescription)"); return nil
            }
        }
        func bool(_ key: String) -> Bool? {
            switch object[key] {
            case nil, .null?: return nil
            case .bool(let b)?: return b
            case let other?: problem("'\(key)' must be true or false, not \(other.kindDescription)"); return nil
            }
        }
        func int(_ key: String) -> Int? {
            switch object[key] {
            case nil, .null?: return nil
            case let value?:
                guard let i = value.integerValue, let small = Int(exactly: i) else {
                    problem(
                        "'\(key)' must be a whole number, not \(value.kindDescription == "a number" ? value.canonicalString() : value.kindDescription)"
                    )
                    return nil
                }
                return small
            }
        }
        func strings(_ key: String) -> [String]? {
            switch object[key] {
            case nil, .null?: return nil
            case .array(let items)?:
                var out: [String] = []
                var valid = true
                for (i, item) in items.enumerated() {
                    guard let s = item.stringValue else {
                        problem("'\(key)' item \(i + 1) must be a string, not \(item.kindDescription)")
                        valid = false
                        continue
                    }
                    out.append(s)
                }
                return valid ? out : nil
            case let other?: problem("'\(key)' must be a list of strings, not \(other.kindDescription)"); return nil
            }
        }
        let label = string("label") ?? ""
        let required = bool("required") ?? false
        let options = strings("options")
        let max = int("max")
        let columns = strings("columns")
        var weight: Double?
        switch object["weight"] {
        case nil, .null?: break
        case let value?:
            if let w = value.numberValue, w.isFinite, w >= 0 {
                weight = w
            } else {
                problem("'weight' must be a number of zero or more, not \(value.canonicalString())")
            }
        }
        let critical = bool("critical") ?? false
        _ = bool("private")
        let col = int("col"), row = int("row"), colSpan = int("col_span"), rowSpan = int("row_span")
        guard problems.isEmpty, let id else { return .failure(SchemaErrors(problems)) }
        var field = FieldDefinition(
            id: id, type: type, label: label, required: required, options: options,
            max: max, columns: columns, weight: weight, critical: critical,
            col: col, row: row, colSpan: colSpan, rowSpan: rowSpan)
        field.raw = object
        return .success(field)
    }

    /// The field as a JSON object: the raw object as received.
    public var json: JSONValue { .object(raw) }
}

/// Every problem found in a schema, in field order.
public struct SchemaErrors: Error, Sendable, Hashable, CustomStringConvertible {
    public var problems: [SchemaProblem]
    public init(_ problems: [SchemaProblem]) { self.problems = problems }
    public var description: String { problems.map(\.description).joined(separator: "; ") }
}
