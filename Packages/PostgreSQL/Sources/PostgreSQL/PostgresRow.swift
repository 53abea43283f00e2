/// One row of a result, its values read by column name as PostgreSQL's text
/// format gives them (`bytea` decoded from its hex form).
public struct PostgresRow: Sendable, Equatable {
    let columns: [String: Int]
    let values: [String?]

    /// True when the column is missing or NULL.
    public func isNull(_ column: String) -> Bool { raw(column) == nil }

    /// The column's text, or nil for NULL.
    public func string(_ column: String) -> String? { raw(column) }

    /// The column as an integer, or nil for NULL or not a number.
    public func int(_ column: String) -> Int64? { raw(column).flatMap { Int64($0) } }

    /// The column as a double, or nil for NULL or not a number.
    public func double(_ column: String) -> Double? { raw(column).flatMap { Double($0) } }

    /// The column as a boolean (`t`/`f`), or nil for NULL.
    public func bool(_ column: String) -> Bool? {
        switch raw(column) {
        case "t"?: return true
        case "f"?: return false
        default: return nil
        }
    }

    /// A `bytea` column's bytes, or nil for NULL or a value that is not hex `bytea`.
    public func bytes(_ column: String) -> [UInt8]? {
        guard let text = raw(column), text.hasPrefix("\\x") else { return nil }
        let digits = Array(text.utf8.dropFirst(2))
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// A column's position in this row's result, found by name once so that
    /// the many rows of one result (a page of an export) are read by it
    /// without looking the name up for each.
    public func position(of column: String) -> Int? { columns[column] }

    /// The text at a position `position(of:)` gave for a row of the same result, or nil for NULL.
    public func string(at position: Int?) -> String? {
        guard let position, position < values.count else { return nil }
        return values[position]
    }

    private func raw(_ column: String) -> String? {
        guard let index = columns[column] else { return nil }
        return values[index]
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
