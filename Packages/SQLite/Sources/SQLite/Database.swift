internal import CSQLite
import Foundation

/// One connection to a SQLite database: the raw wrapper under every store
/// (the device's `LocalStore`, the server's SQLite store).
///
/// It owns the `sqlite3*` handle (closed on a failed open and in `deinit`) and
/// speaks only in `SQLValue`s bound as parameters. It is deliberately not
/// `Sendable`: one owner at a time uses it (each store serialises every call
/// behind its lock).
public final class Database {
    /// How to open the file.
    public enum OpenMode: Sendable {
        /// Read and write, creating the file when absent.
        case readWriteCreate
        /// Read and write an existing file.
        case readWrite
        /// Read only: nothing can be written through this connection.
        case readOnly
    }

    let handle: OpaquePointer
    /// The file path, or `:memory:`.
    public let path: String

    /// Opens (or creates) a database file; the handle is closed again if opening fails.
    public init(path: String, mode: OpenMode = .readWriteCreate) throws(SQLiteError) {
        var flags: Int32
        switch mode {
        case .readWriteCreate: flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags = SQLITE_OPEN_READWRITE
        case .readOnly: flags = SQLITE_OPEN_READONLY
        }
        // One owner serialises access, so SQLite's own connection mutex is not needed.
        flags |= SQLITE_OPEN_NOMUTEX
        var raw: OpaquePointer?
        let rc = sqlite3_open_v2(path, &raw, flags, nil)
        guard rc == SQLITE_OK, let raw else {
            let native = raw.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let systemErrno = raw.map { sqlite3_system_errno($0) } ?? 0
            if let raw { sqlite3_close_v2(raw) }
            let cannotOpen = rc & 0xff == SQLITE_CANTOPEN
            throw SQLiteError.sqlite(
                rc, native, systemErrno: systemErrno, openedPath: cannotOpen ? path : nil, context: path)
        }
        // SQLite falls back to read-only when opening for writing fails for any
        // reason, a failing disk included; writes would then fail later as
        // "readonly database", blaming permissions. Name the cause now instead.
        if mode != .readOnly, path != ":memory:", sqlite3_db_readonly(raw, "main") == 1 {
            let writable = access(path, W_OK) == 0
            sqlite3_close_v2(raw)
            if writable {
                throw SQLiteError(
                    .notWritable,
                    "The database at '\(path)' could not be opened for writing (the disk refused it); check the disk and try again.",
                    openedPath: path, context: path)
            }
            throw SQLiteError(
                .readOnly, "The database at '\(path)' is read-only; check the permissions of the file and its folder.",
                openedPath: path, context: path)
        }
        sqlite3_extended_result_codes(raw, 1)
        self.handle = raw
        self.path = path
    }

    /// A private database in memory, gone when the connection closes.
    public static func inMemory() throws(SQLiteError) -> Database {
        try Database(path: ":memory:")
    }

    deinit {
        // The cached statements first. close_v2 defers the close until every
        // statement is finalized; other statements hold a strong reference to
        // their database, so none can outlive it anyway.
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// When true, `run`, `rows`, `firstRow` and `scalar` compile each SQL text
    /// once and reuse the statement (reset, bindings cleared) on later calls.
    /// For an owner that runs the same few statements many times, such as
    /// the device store, where compiling cost more than running them. Off by default.
    public var cachesStatements = false {
        didSet { if !cachesStatements { statementCache.removeAll() } }
    }
    private var statementCache: [String: Statement] = [:]
    /// More distinct texts than this empties the cache: SQL is never built from values, so it stays small.
    private static let statementCacheLimit = 256

    /// The statement for `sql`: from the cache when caching, else compiled now.
    private func statement(_ sql: String) throws(SQLiteError) -> Statement {
        guard cachesStatements else { return try prepare(sql) }
        if let cached = statementCache[sql] { return cached }
        let statement = try Statement(database: self, sql: sql, keepsDatabaseAlive: false)
        if statementCache.count >= Self.statementCacheLimit { statementCache.removeAll() }
        statementCache[sql] = statement
        return statement
    }

    /// How long a statement waits for another process's lock before failing with busy.
    ///
    /// SQLite's own busy timeout naps up to 100 ms between tries, so a waiter
    /// can lose the lock for seconds to a process that writes in a tight loop.
    /// This handler naps 0.2-2 ms, randomised, so each waiter gets its turn.
    public func setBusyTimeout(milliseconds: Int32) {
        busyTimeoutNanoseconds = UInt64(max(0, milliseconds)) * 1_000_000
        // The callback captures nothing: it finds this connection through the
        // user data, which stays valid as long as the handle (closed in deinit).
        sqlite3_busy_handler(
            handle,
            { userData, count in
                guard let userData else { return 0 }
                let database = Unmanaged<Database>.fromOpaque(userData).takeUnretainedValue()
                return database.retryAfterBusy(count: count) ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    private var busyTimeoutNanoseconds: UInt64 = 0
    private var busyStartedAt: UInt64 = 0

    /// Called by SQLite while another connection holds the lock: true to try again.
    private func retryAfterBusy(count: Int32) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        if count == 0 { busyStartedAt = now }
        guard now &- busyStartedAt < busyTimeoutNanoseconds else { return false }
        usleep(UInt32.random(in: 200...2_000))
        return true
    }

    /// Compiles one SQL statement with `?` parameters.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Runs SQL text that takes no values (schema, pragmas), possibly several statements.
    ///
    /// Never build this text from values: use `run(_:_:)` with parameters for those.
    public func execute(_ sql: String) throws(SQLiteError) {
        var nativeMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &nativeMessage)
        if rc != SQLITE_OK {
            let native = nativeMessage.map { String(cString: $0) } ?? lastNativeMessage
            sqlite3_free(nativeMessage)
            throw SQLiteError.sqlite(rc, native, systemErrno: lastSystemErrno, context: sql)
        }
    }

    /// Runs one statement with its parameters and returns how many rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> Int {
        let statement = try statement(sql)
        try statement.run(values)
        return Int(sqlite3_changes64(handle))
    }

    /// Runs one query with its parameters and returns every row.
    public func rows(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> [Row] {
        try statement(sql).rows(values)
    }

    /// Runs one query and returns its first row, if any.
    public func firstRow(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> Row? {
        try statement(sql).rows(values, limit: 1).first
    }

    /// The first column of the first row, or NULL when there is no row.
    public func scalar(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> SQLValue {
        try firstRow(sql, values)?[0] ?? .null
    }

    /// True while a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: committed when it
    /// returns, rolled back when it throws.
    ///
    /// IMMEDIATE takes the write lock at the start, waiting out another
    /// process's writer through the busy timeout; a deferred transaction could
    /// instead fail with "database is locked" when it upgrades to writing.
    public func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try transaction(mapping: { $0 }, body)
    }

    /// `transaction` for a caller with an error type of its own: its body
    /// throws that type, and a failure to begin or commit is turned into it
    /// by `mapping`. Rolled back on any throw.
    public func transaction<T, Failure: Error>(
        mapping: (SQLiteError) -> Failure,
        _ body: () throws(Failure) -> T
    ) throws(Failure) -> T {
        try enclosed(begin: "BEGIN IMMEDIATE", mapping: mapping, body)
    }

    /// Runs `body`, which only reads, in one deferred transaction: every
    /// statement sees the same snapshot, and the file's locks are taken once
    /// for all of them instead of once a statement. Ended when `body` returns
    /// or throws (a read has nothing to keep); a failure to begin is turned
    /// into the caller's error by `mapping`.
    public func snapshot<T, Failure: Error>(
        mapping: (SQLiteError) -> Failure,
        _ body: () throws(Failure) -> T
    ) throws(Failure) -> T {
        try enclosed(begin: "BEGIN", mapping: mapping, body)
    }

    /// `body` between `begin` and `COMMIT`, rolled back on any throw.
    private func enclosed<T, Failure: Error>(
        begin: String, mapping: (SQLiteError) -> Failure, _ body: () throws(Failure) -> T
    ) throws(Failure) -> T {
        do throws(SQLiteError) { try execute(begin) } catch { throw mapping(error) }
        let result: T
        do {
            result = try body()
        } catch {
            rollbackQuietly()
            throw error
        }
        do throws(SQLiteError) {
            try execute("COMMIT")
        } catch {
            rollbackQuietly()
            throw mapping(error)
        }
        return result
    }

    private func rollbackQuietly() {
        // A failed COMMIT or statement may already have ended the transaction.
        if isInTransaction { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
    }

    /// The `user_version` header field.
    public func userVersion() throws(SQLiteError) -> Int {
        Int(try scalar("PRAGMA user_version").int64Value ?? 0)
    }

    /// Sets the `user_version` header field.
    public func setUserVersion(_ version: Int) throws(SQLiteError) {
        // Pragmas take no parameters. The value is a Swift Int, formatted as
        // digits: it cannot carry SQL. The only place a number meets SQL text.
        try execute("PRAGMA user_version = \(version)")
    }

    /// The `application_id` header field.
    public func applicationID() throws(SQLiteError) -> Int32 {
        Int32(truncatingIfNeeded: try scalar("PRAGMA application_id").int64Value ?? 0)
    }

    /// Sets the `application_id` header field.
    public func setApplicationID(_ id: Int32) throws(SQLiteError) {
        // As for user_version: a formatted Int32, never text from outside.
        try execute("PRAGMA application_id = \(id)")
    }

    var lastNativeMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// The operating system's error number behind the last failed file operation (ENOSPC...).
    var lastSystemErrno: Int32 { sqlite3_system_errno(handle) }
}
