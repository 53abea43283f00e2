import Foundation
internal import CSQLiteServer

/// A value bound to or read from SQL.
enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// One result row.
struct SQLRow {
    let values: [SQLValue]
    func string(_ i: Int) -> String? { if case .text(let s) = values[i] { return s }; return nil }
    func int(_ i: Int) -> Int64? { if case .integer(let v) = values[i] { return v }; return nil }
    func double(_ i: Int) -> Double? {
        switch values[i] {
        case .real(let d): return d
        case .integer(let v): return Double(v)
        default: return nil
        }
    }
}

/// A SQLite connection (temporary, until the Storage wrapper is public).
final class SQLDatabase {
    private var handle: OpaquePointer?

    init(path: String) throws(ServerError) {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            sqlite3_close(db)
            throw ServerError.internal("cannot open the database '\(path)'")
        }
        handle = db
        sqlite3_busy_timeout(db, 5000)
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA foreign_keys=ON")
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String, _ arguments: [SQLValue] = []) throws(ServerError) {
        _ = try query(sql, arguments)
    }

    func query(_ sql: String, _ arguments: [SQLValue] = []) throws(ServerError) -> [SQLRow] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw ServerError.internal("database error: \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (index, value) in arguments.enumerated() {
            let i = Int32(index + 1)
            switch value {
            case .null: sqlite3_bind_null(statement, i)
            case .integer(let v): sqlite3_bind_int64(statement, i, v)
            case .real(let d): sqlite3_bind_double(statement, i, d)
            case .text(let s): sqlite3_bind_text(statement, i, s, -1, transient)
            }
        }
        var rows: [SQLRow] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                throw ServerError.internal("database error: \(String(cString: sqlite3_errmsg(handle)))")
            }
            var values: [SQLValue] = []
            for c in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, c) {
                case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(statement, c)))
                case SQLITE_FLOAT: values.append(.real(sqlite3_column_double(statement, c)))
                case SQLITE_NULL: values.append(.null)
                default: values.append(.text(sqlite3_column_text(statement, c).map { String(cString: $0) } ?? ""))
                }
            }
            rows.append(SQLRow(values: values))
        }
        return rows
    }

    func transaction<T>(_ body: () throws(ServerError) -> T) throws(ServerError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
