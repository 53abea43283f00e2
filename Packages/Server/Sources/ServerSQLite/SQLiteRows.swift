import Foundation
import ServerSQL
import ServerStore
import SQLite

/// The server's use of SQLite's `Database`: every failure as a `ServerError`.
extension Database {
    /// Every row of a parameterised query.
    func query(_ sql: String, _ values: [SQLValue] = []) throws(ServerError) -> [Row] {
        do throws(SQLiteError) { return try rows(sql, values) } catch { throw ServerError.database(error) }
    }

    /// Runs one parameterised statement that changes rows.
    func update(_ sql: String, _ values: [SQLValue]) throws(ServerError) {
        do throws(SQLiteError) { _ = try run(sql, values) } catch { throw ServerError.database(error) }
    }

    /// Runs one parameterised statement that changes rows; how many it changed.
    func changing(_ sql: String, _ values: [SQLValue]) throws(ServerError) -> Int {
        do throws(SQLiteError) { return try run(sql, values) } catch { throw ServerError.database(error) }
    }
}

/// Columns read by name, never by position, as both stores read them.
extension Row: SQLRow {
    public func text(_ column: String) -> String? { self[column].stringValue }
    public func integer(_ column: String) -> Int64? { self[column].int64Value }
    public func real(_ column: String) -> Double? { self[column].doubleValue }
    /// 1 or 0 (any integer but 0 is yes).
    public func flag(_ column: String) -> Bool? { integer(column).map { $0 != 0 } }
}

extension SQLParameter {
    /// The value SQLite binds: a yes/no as 1 or 0, bytes as a blob.
    var sqlValue: SQLValue {
        switch self {
        case .null: return .null
        case .text(let text): return .text(text)
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .flag(let yes): return .integer(yes ? 1 : 0)
        case .bytes(let bytes): return .blob(Data(bytes))
        }
    }
}
