import Foundation
import ServerStore
import SQLite

/// The server's SQLite store, the embedded default (`--db FILE`): one
/// connection, one owner.
///
/// Every access goes through `read` or `write`, which hold a lock for the
/// whole closure (waiting at most `lockWait` for it, then answering 503
/// with `Retry-After`), so exactly one request thread at a time touches the
/// connection; `write` also wraps the closure in an immediate transaction
/// that rolls back on a throw, and `read` in a deferred one, so that its
/// statements share one snapshot and take the file's locks once. That
/// makes the non-Sendable connection safe to share (`@unchecked
/// Sendable`): it is never used outside the lock.
/// Other processes (the admin command) open their own connection; SQLite's
/// file locks, WAL and the busy timeout order them against this one.
public final class SQLiteServerStorage: ServerStorage, @unchecked Sendable {
    private let lock = NSLock()
    private let database: Database
    /// The file, which each export opens a connection of its own to.
    private let path: String
    /// How long a request waits for the connection before it is answered 503.
    private let lockWait: TimeInterval = 3

    /// Opens (creating if needed) and migrates the database at `path`. A
    /// SQLite file of another program (the device's store, say) is refused
    /// before anything is written to it.
    public init(path: String) throws(ServerError) {
        self.path = path
        let foreign: Bool
        do throws(SQLiteError) {
            database = try Database(path: path)
            database.setBusyTimeout(milliseconds: 3_000)
            foreign = try Self.isForeign(database)
            if !foreign {
                try database.execute("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL")
                database.cachesStatements = true
            }
        } catch {
            throw ServerError.database(error)
        }
        guard !foreign else {
            throw ServerError.internal(
                "'\(path)' is a SQLite database of another program, not a jqc-server database; it was left untouched. Give --db a new file or the server's own database."
            )
        }
        try migrate()
    }

    /// True when the file holds tables but is not a jqc-server database: it
    /// carries another program's application id, or has no migration ledger.
    /// Read in one snapshot: another process's first migration committing
    /// between the reads would otherwise look like tables without a stamp.
    private static func isForeign(_ database: Database) throws(SQLiteError) -> Bool {
        let (applicationID, objects, ledger) = try database.snapshot(mapping: { $0 }) {
            () throws(SQLiteError) in
            (
                try database.applicationID(),
                try database.scalar("SELECT count(*) FROM sqlite_master").int64Value ?? 0,
                try database.firstRow(
                    "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?",
                    [.text(ServerMigrations.migrator.ledger)])
            )
        }
        let ours =
            applicationID == ServerMigrations.applicationID || (applicationID == 0 && (objects == 0 || ledger != nil))
        return !ours
    }

    /// The opener the composition root hands to `ServerCommand`.
    /// Opens the file and the photo folder beside it (`PATH.photos`), where uploads also stream to.
    public static func open(path: String, settings: StorageOpener.Settings) throws(ServerError) -> OpenedDatabase {
        let store = try SQLiteServerStorage(path: path)
        let vault = try PhotoVault(directory: PhotoVault.directory(besideDatabase: path))
        return OpenedDatabase(
            store: store, photos: vault, uploadDirectory: vault.uploadDirectory,
            uploads: SQLiteUploadStore(storage: store, folder: vault.uploadDirectory))
    }

    public func read<T>(_ body: (any StorageSession) throws -> T) throws(ServerError) -> T {
        guard lock.lock(before: Date().addingTimeInterval(lockWait)) else { throw ServerError.busy() }
        defer { lock.unlock() }
        return try database.snapshot(mapping: ServerError.database) { () throws(ServerError) -> T in
            try SQLiteSession(db: database).run(body)
        }
    }

    public func write<T>(_ body: (any StorageSession) throws -> T) throws(ServerError) -> T {
        guard lock.lock(before: Date().addingTimeInterval(lockWait)) else { throw ServerError.busy() }
        defer { lock.unlock() }
        return try database.transaction(mapping: ServerError.database) { () throws(ServerError) -> T in
            try SQLiteSession(db: database).run(body)
        }
    }

    /// `body` on the connection itself, under the lock; in one immediate transaction when `writing`.
    func withDatabase<T>(writing: Bool, _ body: (Database) throws(ServerError) -> T) throws(ServerError) -> T {
        guard lock.lock(before: Date().addingTimeInterval(lockWait)) else { throw ServerError.busy() }
        defer { lock.unlock() }
        guard writing else { return try body(database) }
        return try database.transaction(mapping: ServerError.database) { () throws(ServerError) -> T in
            try body(database)
        }
    }

    public func openExport(_ query: ExportQuery) throws(ServerError) -> any ExportReader {
        try SQLiteExportReader(path: path, query: query)
    }

    public func openSnapshot() throws(ServerError) -> any SnapshotReader {
        try SQLiteSnapshotReader(path: path)
    }

    private func migrate() throws(ServerError) {
        do throws(SQLiteError) {
            try ServerMigrations.migrator.migrate(database)
        } catch  where error.code == .newerSchema {
            let step = error.context.map { "migration '\($0)'" } ?? "a newer schema"
            throw ServerError.internal("the database was written by a newer jqc-server (\(step)); use that version")
        } catch {
            throw ServerError.database(error)
        }
    }
}
