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
}

/// How `--db` becomes a store: the composition root (`Apps/jqc-server`)
/// hands in the stores this build has, so ServerCore imports none.
public struct StorageOpener: Sendable {
    private let openFile: @Sendable (String) throws(ServerError) -> any ServerStorage

    /// `file` opens (creating and migrating as needed) a database file by path.
    public init(file: @escaping @Sendable (String) throws(ServerError) -> any ServerStorage) {
        openFile = file
    }

    /// Opens the database `--db` names; `location` was checked by `DatabaseLocation`.
    func open(_ location: String) throws(ServerError) -> any ServerStorage {
        try openFile(location)
    }
}

/// What `--db` may name in this build.
enum DatabaseLocation {
    /// Refuses what this build cannot serve from: a PostgreSQL URL (never quoted: it may hold a password).
    static func check(_ location: String) throws(UsageError) {
        let lowered = location.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            throw UsageError("PostgreSQL support is not in this build; give --db the path of a SQLite database file.")
        }
    }
}
