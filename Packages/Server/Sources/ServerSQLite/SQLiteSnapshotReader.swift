import ServerStore
import SQLite

/// A snapshot of the SQLite store: a connection of its own to the same
/// file, one read transaction on it (WAL keeps its snapshot while the
/// server goes on writing), fixed by the first read made at opening.
///
/// Used by one thread at a time, hence `@unchecked Sendable`.
final class SQLiteSnapshotReader: SnapshotReader, @unchecked Sendable {
    private var database: Database?

    init(path: String) throws(ServerError) {
        let database: Database
        do throws(SQLiteError) {
            database = try Database(path: path, mode: .readWrite)
            database.setBusyTimeout(milliseconds: 3_000)
            try database.execute("BEGIN")
            // The first read fixes the snapshot.
            _ = try database.scalar("SELECT count(*) FROM sqlite_master")
        } catch {
            throw ServerError.database(error)
        }
        self.database = database
    }

    func read<T>(_ body: (any StorageSession) throws -> T) throws(ServerError) -> T {
        guard let database else { throw ServerError.internal("a closed snapshot was read") }
        return try SQLiteSession(db: database).run(body)
    }

    func close() {
        guard let database else { return }
        self.database = nil
        do throws(SQLiteError) { try database.execute("ROLLBACK") } catch { _ = error }
    }

    deinit { close() }
}
