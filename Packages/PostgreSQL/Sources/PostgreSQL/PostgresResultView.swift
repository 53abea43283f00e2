internal import CLibPQ

/// A query's result as libpq holds it, read in place, for reads of many
/// rows (an export's pages): columns are found by name once, and each value
/// is handed out as its bytes, without a Swift string made of it.
///
/// Only valid inside the `PostgresConnection.withResult` call that hands it
/// out (the result is cleared when that call returns), and so are the bytes
/// it gives: keep neither. Values are in PostgreSQL's text format, as
/// `PostgresRow` reads them (`t`/`f` for booleans, `\x...` for `bytea`).
public struct PostgresResultView {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) {
        self.result = result
    }

    /// How many rows the result holds.
    public var rowCount: Int { Int(PQntuples(result)) }

    /// How many columns each row has.
    public var columnCount: Int { Int(PQnfields(result)) }

    /// The position of the column named `name` (as the statement's column
    /// list names it, lowercase unless quoted there), or nil when there is none.
    public func column(_ name: String) -> Int? {
        let position = Int(PQfnumber(result, "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""))
        return position >= 0 ? position : nil
    }

    /// True when the value is NULL, or when `row` or `column` is out of range.
    public func isNull(_ row: Int, _ column: Int?) -> Bool {
        guard let column, contains(row, column) else { return true }
        return PQgetisnull(result, Int32(row), Int32(column)) == 1
    }

    /// The value's bytes (empty for an empty string), or nil for NULL or a
    /// position out of range. The bytes are libpq's: valid only until the
    /// `withResult` call returns.
    public func bytes(_ row: Int, _ column: Int?) -> UnsafeRawBufferPointer? {
        guard let column, !isNull(row, column) else { return nil }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        guard let start = PQgetvalue(result, Int32(row), Int32(column)) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: UnsafeRawPointer(start), count: length)
    }

    /// The value as a string (its bytes decoded as UTF-8), or nil for NULL.
    public func string(_ row: Int, _ column: Int?) -> String? {
        bytes(row, column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The value as an integer, read from its digits without a string, or
    /// nil for NULL or a value that is not a whole number in range.
    public func int(_ row: Int, _ column: Int?) -> Int64? {
        guard let bytes = bytes(row, column), !bytes.isEmpty else { return nil }
        var index = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative || bytes[0] == UInt8(ascii: "+") { index = 1 }
        guard index < bytes.count else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowNext) =
                negative
                ? times.subtractingReportingOverflow(Int64(digit))
                : times.addingReportingOverflow(Int64(digit))
            guard !overflowTimes, !overflowNext else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// The value as a double, or nil for NULL or not a number.
    public func double(_ row: Int, _ column: Int?) -> Double? {
        string(row, column).flatMap { Double($0) }
    }

    /// The value as a boolean (`t`/`f`), or nil for NULL or another value.
    public func bool(_ row: Int, _ column: Int?) -> Bool? {
        guard let bytes = bytes(row, column), bytes.count == 1 else { return nil }
        switch bytes[0] {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: return nil
        }
    }

    private func contains(_ row: Int, _ column: Int) -> Bool {
        row >= 0 && row < rowCount && column >= 0 && column < columnCount
    }
}
