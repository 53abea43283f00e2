/// A parameter of a statement, sent in PostgreSQL's text format (bytes in
/// binary), so the SQL text never holds a value.
public enum PostgresValue: Sendable, Hashable {
    case null
    case text(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case bytes([UInt8])

    /// `value` as text, or NULL.
    public static func optional(_ value: String?) -> PostgresValue { value.map(PostgresValue.text) ?? .null }
    /// `value` as an integer, or NULL.
    public static func optional(_ value: Int64?) -> PostgresValue { value.map(PostgresValue.integer) ?? .null }
    /// `value` as a double, or NULL.
    public static func optional(_ value: Double?) -> PostgresValue { value.map(PostgresValue.double) ?? .null }

    /// The bytes sent for this value and whether they are binary; nil for NULL.
    func wire() throws(PostgresError) -> (bytes: [UInt8], binary: Bool)? {
        switch self {
        case .null: return nil
        case .text(let text):
            guard !text.utf8.contains(0) else {
                throw PostgresError(.usage, "a text value holds a NUL character, which PostgreSQL text cannot store")
            }
            return (Array(text.utf8), false)
        case .integer(let value): return (Array(String(value).utf8), false)
        case .double(let value):
            guard value.isFinite else {
                return (Array((value.isNaN ? "NaN" : value > 0 ? "Infinity" : "-Infinity").utf8), false)
            }
            return (Array("\(value)".utf8), false)
        case .bool(let value): return (Array((value ? "t" : "f").utf8), false)
        case .bytes(let bytes): return (bytes, true)
        }
    }
}
