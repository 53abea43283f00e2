/// A report's answers: field id to the contract's JSON encoding of the answer.
/// An absent key is an unanswered field.
public struct Answers: Sendable, Hashable {
    public var values: [FieldID: JSONValue]

    public init(_ values: [FieldID: JSONValue] = [:]) { self.values = values }

    /// The answer for a field, or nil when unanswered.
    public subscript(id: FieldID) -> JSONValue? {
        get { values[id] }
        set { values[id] = newValue }
    }

    /// The ids answered, in a stable order.
    public var answeredIDs: [FieldID] { values.keys.sorted() }

    public var isEmpty: Bool { values.isEmpty }

    /// Reads `{"<field id>": value}`; JSON `null` values count as unanswered.
    public init?(json: JSONValue) {
        guard let object = json.objectValue else { return nil }
        var values: [FieldID: JSONValue] = [:]
        for (key, value) in object where !value.isNull { values[FieldID(key)] = value }
        self.values = values
    }

    /// The answers as the contract's `answers` object (string keys).
    public var json: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: values.map { ($0.key.rawValue, $0.value) }))
    }
}
