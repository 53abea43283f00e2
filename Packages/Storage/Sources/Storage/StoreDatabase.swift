import Foundation
import SQLite

/// The store's connection: SQLite's `Database` with every failure told in the
/// store's own words (`StorageError`), which the apps show and act on.
///
/// Not `Sendable`, like the connection it wraps: `LocalStore` serialises every call.
final class StoreDatabase {
    /// The SQLite connection.
    let sqlite: Database

    init(_ sqlite: Database) { self.sqlite = sqlite }

    /// Opens (or creates) a database file.
    convenience init(path: String, mode: Database.OpenMode) throws(StorageError) {
        do throws(SQLiteError) { self.init(try Database(path: path, mode: mode)) } catch { throw StorageError(error) }
    }

    /// A private database in memory.
    static func inMemory() throws(StorageError) -> StoreDatabase {
        do throws(SQLiteError) { return StoreDatabase(try Database.inMemory()) } catch { throw StorageError(error) }
    }

    /// See `Database.cachesStatements`.
    var cachesStatements: Bool {
        get { sqlite.cachesStatements }
        set { sqlite.cachesStatements = newValue }
    }

    func setBusyTimeout(milliseconds: Int32) { sqlite.setBusyTimeout(milliseconds: milliseconds) }

    func prepare(_ sql: String) throws(StorageError) -> StoreStatement {
        do throws(SQLiteError) { return StoreStatement(try sqlite.prepare(sql)) } catch { throw StorageError(error) }
    }

    func execute(_ sql: String) throws(StorageError) {
        do throws(SQLiteError) { try sqlite.execute(sql) } catch { throw StorageError(error) }
    }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue] = []) throws(StorageError) -> Int {
        do throws(SQLiteError) { return try sqlite.run(sql, values) } catch { throw StorageError(error) }
    }

    /// Each row of a query as it is read (see `Statement.forEachRow`).
    func forEachRow(_ sql: String, _ values: [SQLValue] = [], _ body: (Statement.ColumnReader) -> Bool)
        throws(StorageError)
    {
        do throws(SQLiteError) { try sqlite.prepare(sql).forEachRow(values, body) } catch { throw StorageError(error) }
    }

    func rows(_ sql: String, _ values: [SQLValue] = []) throws(StorageError) -> [Row] {
        do throws(SQLiteError) { return try sqlite.rows(sql, values) } catch { throw StorageError(error) }
    }

    func firstRow(_ sql: String, _ values: [SQLValue] = []) throws(StorageError) -> Row? {
        do throws(SQLiteError) { return try sqlite.firstRow(sql, values) } catch { throw StorageError(error) }
    }

    func scalar(_ sql: String, _ values: [SQLValue] = []) throws(StorageError) -> SQLValue {
        do throws(SQLiteError) { return try sqlite.scalar(sql, values) } catch { throw StorageError(error) }
    }

    /// One `BEGIN IMMEDIATE` transaction, rolled back on any throw.
    func transaction<T>(_ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        try sqlite.transaction(mapping: StorageError.init, body)
    }

    /// Reads that all see one state of the file (see `Database.snapshot`).
    func snapshot<T>(_ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        try sqlite.snapshot(mapping: StorageError.init, body)
    }

    func userVersion() throws(StorageError) -> Int {
        do throws(SQLiteError) { return try sqlite.userVersion() } catch { throw StorageError(error) }
    }

    func applicationID() throws(StorageError) -> Int32 {
        do throws(SQLiteError) { return try sqlite.applicationID() } catch { throw StorageError(error) }
    }
}

/// A compiled statement of the store, failing with `StorageError`.
struct StoreStatement {
    let sqlite: Statement

    init(_ sqlite: Statement) { self.sqlite = sqlite }

    func run(_ values: [SQLValue] = []) throws(StorageError) {
        do throws(SQLiteError) { try sqlite.run(values) } catch { throw StorageError(error) }
    }

    func rows(_ values: [SQLValue] = [], limit: Int = .max) throws(StorageError) -> [Row] {
        do throws(SQLiteError) { return try sqlite.rows(values, limit: limit) } catch { throw StorageError(error) }
    }
}
