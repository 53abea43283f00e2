internal import CSQLite
import Foundation

/// One connection to a SQLite database: the raw wrapper under `LocalStore`.
///
/// It owns the `sqlite3*` handle (closed on a failed open and in `deinit`) and
/// speaks only in `SQLValue`s bound as parameters. It is deliberately not
/// `Sendable`: one owner at a time uses it (`LocalStore` serialises every
/// call behind its lock). Apps use `LocalStore`; this type is public for
/// tools that keep a SQLite file of their own.
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
    public init(path: String, mode: OpenMode = .readWriteCreate) throws(StorageError) {
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
            if rc & 0xff == SQLITE_CANTOPEN && !StorageError.isDiskFull(errno: systemErrno) {
                if StorageError.isDeviceFailure(errno: systemErrno) {
                    throw StorageError(.io, "The store at '\(path)' cannot be opened (\(native): \(StorageError.cause(systemErrno))); check the disk and try again.", context: path)
                }
                throw StorageError(.permission, "The store at '\(path)' cannot be opened (\(native)); check that its folder exists and that you may write to it.", context: path)
            }
            throw StorageError.sqlite(rc, native, systemErrno: systemErrno, context: path)
        }
        // SQLite falls back to read-only when opening for writing fails for any
        // reason, a failing disk included; writes would then fail later as
        // "readonly database", blaming permissions. Name the cause now instead.
        if mode != .readOnly, path != ":memory:", sqlite3_db_readonly(raw, "main") == 1 {
            let writable = access(path, W_OK) == 0
            sqlite3_close_v2(raw)
            if writable {
                throw StorageError(.io, "The store at '\(path)' could not be opened for writing (the disk refused it); check the disk and try again.", context: path)
            }
            throw StorageError(.permission, "The store at '\(path)' is read-only; check the permissions of the file and its folder.", context: path)
        }
        sqlite3_extended_result_codes(raw, 1)
        self.handle = raw
        self.path = path
    }

    /// A private database in memory, gone when the connection closes.
    public static func inMemory() throws(StorageError) -> Database {
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
    private func statement(_ sql: String) throws(StorageError) -> Statement {
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
        sqlite3_busy_handler(handle, { userData, count in
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
    public func prepare(_ sql: String) throws(StorageError) -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// Runs SQL text that takes no values (schema, pragmas), possibly several statements.
    ///
    /// Never build this text from values: use `run(_:_:)` with parameters for those.
    public func execute(_ sql: String) throws(StorageError) {
        var nativeMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &nativeMessage)
        if rc != SQLITE_OK {
            let native = nativeMessage.map { String(cString: $0) } ?? lastNativeMessage
            sqlite3_free(nativeMessage)
            throw StorageError.sqlite(rc, native, systemErrno: lastSystemErrno, context: sql)
        }
    }

    /// Runs one statement with its parameters and returns how many rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: [SQLValue] = []) throws(StorageError) -> Int {
        let statement = try statement(sql)
        try statement.run(values)
        return Int(sqlite3_changes64(handle))
    }

    /// Runs one query with its parameters and returns every row.
    public func rows(_ sql: String, _ values: [SQLValue] = []) throws(StorageError) -> [Row] {
        try statement(sql).rows(values)
    }

    /// Runs one query and returns its first row, if any.
    public func firstRow(_ sql: String, _ values: [SQLValue] = []) throws(StorageError) -> Row? {
        try statement(sql).rows(values, limit: 1).first
    }

    /// The first column of the first row, or NULL when there is no row.
    public func scalar(_ sql: String, _ values: [SQLValue] = []) throws(StorageError) -> SQLValue {
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
    public func transaction<T>(_ body: () throws(StorageError) -> T) throws(StorageError) -> T {
        try execute("BEGIN IMMEDIATE")
        let result: T
        do {
            result = try body()
        } catch {
            rollbackQuietly()
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            rollbackQuietly()
            throw error
        }
        return result
    }

    private func rollbackQuietly() {
        // A failed COMMIT or statement may already have ended the transaction.
        if isInTransaction { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
    }

    /// The `user_version` header field.
    public func userVersion() throws(StorageError) -> Int {
        Int(try scalar("PRAGMA user_version").int64Value ?? 0)
    }

    /// Sets the `user_version` header field.
    public func setUserVersion(_ version: Int) throws(StorageError) {
        // Pragmas take no parameters. The value is a Swift Int, formatted as
        // digits: it cannot carry SQL. The only place a number meets SQL text.
        try execute("PRAGMA user_version = \(version)")
    }

    /// The `application_id` header field.
    public func applicationID() throws(StorageError) -> Int32 {
        Int32(truncatingIfNeeded: try scalar("PRAGMA application_id").int64Value ?? 0)
    }

    /// Sets the `application_id` header field.
    public func setApplicationID(_ id: Int32) throws(StorageError) {
        // As for user_version: a formatted Int32, never text from outside.
        try execute("PRAGMA application_id = \(id)")
    }

    var lastNativeMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// The operating system's error number behind the last failed file operation (ENOSPC...).
    var lastSystemErrno: Int32 { sqlite3_system_errno(handle) }
}

extension StorageError {
    /// The message of every full-disk failure, whichever layer met it.
    static let diskFullMessage = "The disk is full; free some space and try again. Nothing already saved was lost."

    /// True for the operating system's "no space" errors.
    static func isDiskFull(errno code: Int32) -> Bool {
        code == ENOSPC || code == EDQUOT
    }

    /// True for an operating-system error that says the device or the call
    /// failed (EIO, EINTR, EAGAIN, ...), as opposed to a missing file, a
    /// permission or a full disk, which each have their own message.
    static func isDeviceFailure(errno code: Int32) -> Bool {
        code != 0 && !isDiskFull(errno: code) && ![EACCES, EPERM, EROFS, ENOENT, ENOTDIR, EISDIR].contains(code)
    }

    /// The system's words for `errno`.
    static func cause(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The error for a SQLite result code, with a message a person can act on.
    /// `systemErrno` is the operating system's error behind an I/O failure: SQLite
    /// reports a full disk met while growing its shared-memory index or journal as
    /// an I/O error, not as SQLITE_FULL.
    static func sqlite(_ code: Int32, _ native: String, systemErrno: Int32 = 0, context: String?) -> StorageError {
        let primary = code & 0xff
        if primary == SQLITE_FULL || ((primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN) && isDiskFull(errno: systemErrno)) {
            return StorageError(.diskFull, diskFullMessage, context: context)
        }
        switch primary {
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return StorageError(.corruptStore, "The store is damaged or is not a jqc store (\(native)).", context: context)
        case SQLITE_CANTOPEN where isDeviceFailure(errno: systemErrno):
            return StorageError(.io, "The store file cannot be opened (\(native): \(cause(systemErrno))); check the disk and try again.", context: context)
        case SQLITE_CANTOPEN:
            return StorageError(.permission, "The store file cannot be opened (\(native)); check that its folder exists and that you may write to it.", context: context)
        case SQLITE_PERM, SQLITE_READONLY, SQLITE_AUTH:
            return StorageError(.permission, "The store cannot be written (\(native)); check the permissions of the file and its folder.", context: context)
        case SQLITE_BUSY, SQLITE_LOCKED:
            return StorageError(.busy, "The store stayed busy in another jqc process for too long; try again.", context: context)
        case SQLITE_CONSTRAINT:
            return StorageError(.io, "The change breaks a rule of the store (\(native)); nothing was saved.", context: context)
        case SQLITE_IOERR where systemErrno != 0:
            return StorageError(.io, "The store could not be read or written (\(native): \(cause(systemErrno))); check the disk and try again.", context: context)
        case SQLITE_IOERR:
            return StorageError(.io, "The store could not be read or written (\(native)); check the disk and try again.", context: context)
        default:
            return StorageError(.io, "The store failed (\(native)).", context: context)
        }
    }
}
