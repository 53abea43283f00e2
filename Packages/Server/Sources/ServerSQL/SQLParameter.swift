import Foundation
import Models

/// A parameter of a statement both stores run: each store turns it into its
/// own value (`SQLValue`, `PostgresValue`), so the SQL text never holds one.
public enum SQLParameter: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// Text.
    case text(String)
    /// A 64-bit integer.
    case integer(Int64)
    /// A double-precision number.
    case real(Double)
    /// A yes/no value: 1 or 0 in SQLite, a boolean in PostgreSQL.
    case flag(Bool)
    /// Bytes: a blob in SQLite, `bytea` in PostgreSQL.
    case bytes([UInt8])

    /// Text, or NULL for nil.
    public static func optional(_ text: String?) -> SQLParameter { text.map(SQLParameter.text) ?? .null }
    /// A count, or NULL for nil.
    public static func optional(_ number: Int?) -> SQLParameter { number.map { .integer(Int64($0)) } ?? .null }
    /// An integer, or NULL for nil.
    public static func optional(_ number: Int64?) -> SQLParameter { number.map(SQLParameter.integer) ?? .null }
    /// A number, or NULL for nil.
    public static func optional(_ number: Double?) -> SQLParameter { number.map(SQLParameter.real) ?? .null }
    /// A yes/no value, or NULL for nil.
    public static func optional(_ flag: Bool?) -> SQLParameter { flag.map(SQLParameter.flag) ?? .null }
    /// A count as an integer.
    public static func count(_ number: Int) -> SQLParameter { .integer(Int64(number)) }
    /// A moment as whole seconds since 1970, the way uploads keep their deadlines.
    public static func seconds(_ date: Date) -> SQLParameter { .integer(Int64(date.timeIntervalSince1970)) }
    /// A moment as RFC 3339 text, the way the stores keep timestamps.
    public static func stamp(_ date: Date) -> SQLParameter { .text(RFC3339.string(date)) }
    /// A UUID as lowercase text, the way the server stores ids from devices.
    public static func id(_ uuid: UUID) -> SQLParameter { .text(uuid.uuidString.lowercased()) }
    /// An optional UUID as lowercase text, or NULL.
    public static func id(_ uuid: UUID?) -> SQLParameter { uuid.map(id) ?? .null }
}
