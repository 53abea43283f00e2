import Foundation
import UUIDText

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
    public init(_ value: UUID?) { self = value.map { .text(UUIDText.uppercase($0)) } ?? .null }

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
        guard let index = positions.position(of: column), index < values.count else { return .null }
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
///
/// A name is looked for by its UTF-8 bytes first, in a small table of its
/// own (hashing a `String` for a dictionary costs several hundred
/// instructions, and a store reads dozens of columns by name per row); a
/// name spelled in other bytes that Swift takes as equal is still found,
/// through the dictionary.
final class ColumnPositions: Sendable {
    let columns: [String]
    let index: [String: Int]
    /// Every column's name as UTF-8, one after another; name `i` spans `starts[i]..<starts[i + 1]`.
    private let bytes: [UInt8]
    private let starts: [Int]
    /// Open addressing by `hash` of the name: the position plus one, 0 when empty.
    /// Only the position the dictionary gives its name is entered.
    private let slots: [Int]

    init(_ columns: [String]) {
        self.columns = columns
        var index: [String: Int] = [:]
        for (position, name) in columns.enumerated() where index[name] == nil { index[name] = position }
        self.index = index
        var bytes: [UInt8] = []
        var starts = [0]
        for name in columns {
            bytes += name.utf8
            starts.append(bytes.count)
        }
        var size = 8
        while size < columns.count * 2 { size <<= 1 }
        var slots = [Int](repeating: 0, count: size)
        for position in columns.indices where index[columns[position]] == position {
            var slot = bytes[starts[position]..<starts[position + 1]].withUnsafeBufferPointer(Self.hash) & (size - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = position + 1
        }
        self.bytes = bytes
        self.starts = starts
        self.slots = slots
    }

    /// Where the column named `name` is, the first when a name repeats; nil when none is.
    func position(of name: String) -> Int? {
        var name = name
        let byBytes = name.withUTF8 { utf8 -> Int? in
            bytes.withUnsafeBufferPointer { bytes in
                starts.withUnsafeBufferPointer { starts in
                    slots.withUnsafeBufferPointer { slots -> Int? in
                        let mask = slots.count - 1
                        var slot = Self.hash(utf8) & mask
                        while true {
                            let entry = slots[slot]
                            if entry == 0 { return nil }
                            let start = starts[entry - 1]
                            if starts[entry] - start == utf8.count,
                                utf8.isEmpty || memcmp(bytes.baseAddress! + start, utf8.baseAddress!, utf8.count) == 0
                            {
                                return entry - 1
                            }
                            slot = (slot + 1) & mask
                        }
                    }
                }
            }
        }
        return byBytes ?? index[name]
    }

    /// FNV-1a of the bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return Int(truncatingIfNeeded: hash)
    }
}
