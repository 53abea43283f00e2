internal import CSQLite
import Foundation

/// One compiled SQL statement; finalized when released.
///
/// Not `Sendable`, like its `Database`, which it keeps alive (except the
/// statements the database caches itself, which it owns and outlives).
public final class Statement {
    let handle: OpaquePointer
    unowned let database: Database
    /// The strong reference that keeps the database open while this statement
    /// lives; nil for a statement in the database's own cache (no cycle).
    private let owner: Database?
    /// The SQL text, kept for error context.
    public let sql: String
    /// The result's column names and their positions, once read.
    private var names: ColumnPositions?

    init(database: Database, sql: String, keepsDatabaseAlive: Bool = true) throws(SQLiteError) {
        var raw: OpaquePointer?
        // `tail` points into the C copy of `sql`, which lives only inside this
        // closure: read what follows the first statement before it ends.
        let (rc, rest) = sql.withCString { text -> (Int32, String) in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(database.handle, text, -1, &raw, &tail)
            return (rc, tail.map { String(cString: $0) } ?? "")
        }
        guard rc == SQLITE_OK, let raw else {
            if let raw { sqlite3_finalize(raw) }
            throw SQLiteError.sqlite(
                rc, database.lastNativeMessage, systemErrno: database.lastSystemErrno, context: sql)
        }
        if !rest.allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            sqlite3_finalize(raw)
            throw SQLiteError(.misuse, "Internal error: one statement was expected, several were given.", context: sql)
        }
        self.handle = raw
        self.database = database
        self.owner = keepsDatabaseAlive ? database : nil
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The result's column names, read from SQLite once per statement (a
    /// cached statement runs many times) and again only if their number changed.
    private func columnNames(_ count: Int32) -> ColumnPositions {
        if let names, names.columns.count == Int(count) { return names }
        let read = ColumnPositions((0..<count).map { String(cString: sqlite3_column_name(handle, $0)) })
        names = read
        return read
    }

    /// Runs the statement to completion with these parameters (for writes).
    public func run(_ values: [SQLValue] = []) throws(SQLiteError) {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs the query with these parameters and returns its rows (at most `limit`).
    public func rows(_ values: [SQLValue] = [], limit: Int = .max) throws(SQLiteError) -> [Row] {
        try bind(values)
        defer { sqlite3_reset(handle) }
        let count = sqlite3_column_count(handle)
        let names = columnNames(count)
        var result: [Row] = []
        while result.count < limit, try step() {
            result.append(Row(values: (0..<count).map(column), positions: names))
        }
        return result
    }

    /// Runs the query and hands each row to `body` as it is read, its
    /// columns read by position straight from SQLite (no row is kept);
    /// `body` returns false to stop early. For listings of any length.
    public func forEachRow(_ values: [SQLValue] = [], _ body: (ColumnReader) -> Bool) throws(SQLiteError) {
        try bind(values)
        defer { sqlite3_reset(handle) }
        let reader = ColumnReader(statement: self)
        while try step() {
            if !body(reader) { return }
        }
    }

    /// The current row of `forEachRow`, column by position (from 0).
    public struct ColumnReader {
        let statement: Statement

        /// The column's text, or nil for NULL.
        public func text(_ index: Int32) -> String? {
            guard sqlite3_column_type(statement.handle, index) != SQLITE_NULL,
                let text = sqlite3_column_text(statement.handle, index)
            else { return nil }
            let length = Int(sqlite3_column_bytes(statement.handle, index))
            return String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self)
        }

        /// The column as a number, or nil for NULL.
        public func double(_ index: Int32) -> Double? {
            sqlite3_column_type(statement.handle, index) == SQLITE_NULL
                ? nil : sqlite3_column_double(statement.handle, index)
        }

        /// The column as an integer, or nil for NULL.
        public func integer(_ index: Int32) -> Int64? {
            sqlite3_column_type(statement.handle, index) == SQLITE_NULL
                ? nil : sqlite3_column_int64(statement.handle, index)
        }
    }

    private func bind(_ values: [SQLValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard expected == values.count else {
            throw SQLiteError(
                .misuse, "Internal error: the statement takes \(expected) values, \(values.count) were given.",
                context: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null:
                rc = sqlite3_bind_null(handle, index)
            case .integer(let i):
                rc = sqlite3_bind_int64(handle, index, i)
            case .real(let d):
                rc = sqlite3_bind_double(handle, index, d)
            case .text(let s):
                // withCString hands over every byte (embedded NULs included) plus a
                // terminator; the explicit UTF-8 length is what SQLite stores.
                let length = sqlite3_uint64(s.utf8.count)
                rc = s.withCString { chars in
                    jqc_sqlite3_bind_text_transient(handle, index, chars, length)
                }
            case .blob(let d):
                if d.isEmpty {
                    rc = sqlite3_bind_zeroblob(handle, index, 0)
                } else {
                    rc = d.withUnsafeBytes { bytes in
                        jqc_sqlite3_bind_blob_transient(handle, index, bytes.baseAddress, sqlite3_uint64(bytes.count))
                    }
                }
            }
            guard rc == SQLITE_OK else {
                throw SQLiteError.sqlite(
                    rc, database.lastNativeMessage, systemErrno: database.lastSystemErrno, context: sql)
            }
        }
    }

    /// Advances one row: true when a row is ready, false when done.
    private func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            throw SQLiteError.sqlite(
                rc, database.lastNativeMessage, systemErrno: database.lastSystemErrno, context: sql)
        }
    }

    private func column(_ index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            let length = Int(sqlite3_column_bytes(handle, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
        case SQLITE_BLOB:
            let length = Int(sqlite3_column_bytes(handle, index))
            guard let bytes = sqlite3_column_blob(handle, index), length > 0 else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: length))
        default:
            return .null
        }
    }
}
