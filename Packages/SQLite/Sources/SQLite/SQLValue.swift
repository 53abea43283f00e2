import Foundation

/// A value bound to a statement's `?` parameter or read from a result column.
///
/// Values reach SQLite only through this type, as bound parameters: no value
/// is ever spliced into SQL text.
public enum SQLValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double-precision number.
    case real(Double)
    /// UTF-8 text, bound with its explicit length.
    case text(String)
    /// Bytes, bound with their explicit length.
    case blob(Data)

    /// The text, or NULL when `value` is nil.
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    /// The integer, or NULL when `value` is nil.
    public init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    /// The integer, or NULL when `value` is nil.
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    /// The number, or NULL when `value` is nil.
    public init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
    /// 1 or 0.
    public init(_ value: Bool) { self = .integer(value ? 1 : 0) }
    /// Seconds since 1970 as a number, or NULL when `value` is nil.
    public init(_ value: Date?) { self = value.map { .real($0.timeIntervalSince1970) } ?? .null }
    /// The canonical uppercase text of the UUID, or NULL when `value` is nil.
    public init(_ value: UUID?) { self = value.map { .text(UUIDText.canonical($0)) } ?? .null }

    /// The integer, when this is an integer (or a real that is a whole number).
    public var int64Value: Int64? {
        switch self {
        case .integer(let i): return i
        case .real(let d) where d.rounded() == d && abs(d) < 9.0e15: return Int64(d)
        default: return nil
        }
    }

    /// The number, when this is an integer or a real.
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .real(let d): return d
        default: return nil
        }
    }

    /// The text, when this is text.
    public var stringValue: String? {
        if case .text(let s) = self { return s }
        return nil
    }

    /// The bytes, when this is a blob.
    public var dataValue: Data? {
        if case .blob(let d) = self { return d }
        return nil
    }

    /// True for SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// One result row: the column names and their values, in statement order.
public struct Row: Sendable, Hashable {
    /// The column names, as the statement names them.
    public let columns: [String]
    /// The values, one per column.
    public let values: [SQLValue]
    /// Where each name is, shared by every row of a statement.
    private let positions: ColumnPositions

    /// A row of `values` under `columns`.
    public init(columns: [String], values: [SQLValue]) {
        self.init(values: values, positions: ColumnPositions(columns))
    }

    init(values: [SQLValue], positions: ColumnPositions) {
        self.columns = positions.columns
        self.values = values
        self.positions = positions
    }

    /// The value of the named column, or NULL when the row has no such column.
    public subscript(_ column: String) -> SQLValue {
        guard let index = positions.index[column], index < values.count else { return .null }
        return values[index]
    }

    /// The value at a column index, or NULL past the end.
    public subscript(_ index: Int) -> SQLValue {
        values.indices.contains(index) ? values[index] : .null
    }

    public static func == (left: Row, right: Row) -> Bool {
        left.columns == right.columns && left.values == right.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(columns)
        hasher.combine(values)
    }
}

/// A statement's column names and the position of each (the first, when a
/// name repeats, as a search from the left would find), read once per
/// statement rather than searched for in every row.
final class ColumnPositions: Sendable {
    let columns: [String]
    let index: [String: Int]

    init(_ columns: [String]) {
        self.columns = columns
        var index: [String: Int] = [:]
        for (position, name) in columns.enumerated() where index[name] == nil { index[name] = position }
        self.index = index
    }
}
