import ArgumentParsing

/// The server's database, whatever it is: the seam between the routes and
/// rules above it and a concrete store below (`ServerSQLite`). Nothing above
/// it sees SQL or rows.
///
/// Every access is a `read` or a `write`; a `write` is one transaction,
/// rolled back when its body throws. A store answers 503 with `Retry-After`
/// (`ServerError.busy`) when it cannot start the work in time.
public protocol ServerStorage: Sendable {
    /// Runs `body` with a session that reads.
    func read<T>(_ body: (any StorageSession) throws -> T) throws(ServerError) -> T
    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func write<T>(_ body: (any StorageSession) throws -> T) throws(ServerError) -> T
    /// Begins an export of the reports `query` matches: a read transaction
    /// of its own (one snapshot, on a connection of its own) that the reader
    /// holds until it is closed. 400 `CURSOR_INVALID` for a `since` of other data.
    func openExport(_ query: ExportQuery) throws(ServerError) -> any ExportReader
    /// Begins a read of one snapshot held across calls (an export of
    /// actions pages through it): a read transaction on a connection of its
    /// own until the reader is closed.
    func openSnapshot() throws(ServerError) -> any SnapshotReader
    /// Copies the records, as one consistent snapshot taken while servers
    /// go on writing, into a new file at `path` (`admin backup`); a store
    /// that cannot (PostgreSQL: `pg_dump`) refuses with one line saying what to use.
    func backup(to path: String) throws(ServerError)
}

extension StorageSession {
    /// Runs a `read` or `write` body on this session for a store: a
    /// `ServerError` passes through, anything else becomes a 500.
    public func run<T>(_ body: (any StorageSession) throws -> T) throws(ServerError) -> T {
        do {
            return try body(self)
        } catch let error as ServerError {
            throw error
        } catch {
            throw ServerError.internal("the database failed: \(error)")
        }
    }
}

/// How `--db` becomes a store: the composition root (`Apps/jqc-server`)
/// hands in the stores this build has, so ServerCore imports none.
public struct StorageOpener: Sendable {
    /// What a store's opener is told besides the location.
    public struct Settings: Sendable {
        /// Connections a pooled store may hold (`--db-connections`).
        public var connections: Int
        /// Where uploads stream before they are checked, when `--upload-dir` names a folder.
        public var uploadDirectory: String?

        public init(connections: Int, uploadDirectory: String?) {
            self.connections = connections
            self.uploadDirectory = uploadDirectory
        }
    }

    public typealias Open = @Sendable (String, Settings) throws(ServerError) -> OpenedDatabase

    private let openFile: Open
    private let openPostgres: Open?

    /// `file` opens (creating and migrating as needed) a database file by
    /// path; `postgres`, when this build has it, a PostgreSQL database by URL.
    public init(file: @escaping Open, postgres: Open? = nil) {
        openFile = file
        openPostgres = postgres
    }

    /// Opens the database `--db` names.
    public func open(_ location: String, _ settings: Settings) throws(ServerError) -> OpenedDatabase {
        if DatabaseLocation.isPostgres(location) {
            guard let openPostgres else {
                throw ServerError.internal(
                    "PostgreSQL support is not in this build; give --db the path of a SQLite database file")
            }
            return try openPostgres(location, settings)
        }
        return try openFile(location, settings)
    }
}

/// What `--db` may name: a SQLite file or a PostgreSQL URL.
public enum DatabaseLocation {
    /// True for `postgres://` and `postgresql://` URLs.
    public static func isPostgres(_ location: String) -> Bool {
        let lowered = location.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }
}
