import PostgreSQL
import ServerSQL

/// A PostgreSQL row read with the names both stores use.
extension PostgresRow: SQLRow {
    public func text(_ column: String) -> String? { string(column) }
    public func integer(_ column: String) -> Int64? { int(column) }
    public func real(_ column: String) -> Double? { double(column) }
    /// A boolean column (`t`/`f`).
    public func flag(_ column: String) -> Bool? { bool(column) }
}

extension SQLParameter {
    /// The value PostgreSQL is sent: a yes/no as a boolean, bytes as `bytea`.
    var postgresValue: PostgresValue {
        switch self {
        case .null: return .null
        case .text(let text): return .text(text)
        case .integer(let number): return .integer(number)
        case .real(let number): return .double(number)
        case .flag(let yes): return .bool(yes)
        case .bytes(let bytes): return .bytes(bytes)
        }
    }
}
