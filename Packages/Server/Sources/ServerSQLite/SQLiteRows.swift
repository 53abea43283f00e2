import Foundation
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

/// Columns read by name, never by position.
extension Row {
    func text(_ column: String) -> String? { self[column].stringValue }
    func integer(_ column: String) -> Int64? { self[column].int64Value }
    func real(_ column: String) -> Double? { self[column].doubleValue }
    func uuid(_ column: String) -> UUID? { text(column).flatMap(UUID.init(uuidString:)) }
}

extension SQLValue {
    /// Text, or NULL for nil.
    static func optional(_ text: String?) -> SQLValue { text.map(SQLValue.text) ?? .null }
    /// A count, or NULL for nil.
    static func optional(_ number: Int?) -> SQLValue { number.map { .integer(Int64($0)) } ?? .null }
    /// A UUID as lowercase text, the way the server stores ids from devices.
    static func id(_ uuid: UUID) -> SQLValue { .text(uuid.uuidString.lowercased()) }
    /// An optional UUID as lowercase text, or NULL.
    static func id(_ uuid: UUID?) -> SQLValue { uuid.map(id) ?? .null }
}
