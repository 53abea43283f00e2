import Models

/// How a merged revision's fields from the server's side are kept: a JSON array of names.
public enum MergeRecord {
    /// The text kept for a list of names.
    public static func json(_ fields: [String]) -> String {
        CanonicalJSON.string(JSONValue.array(fields.map(JSONValue.string)))
    }

    /// The names kept text holds.
    public static func fields(json: String) -> [String] {
        CanonicalJSON.value(json).arrayValue?.compactMap(\.stringValue) ?? []
    }
}
