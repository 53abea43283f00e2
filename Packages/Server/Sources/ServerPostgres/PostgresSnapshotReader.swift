import PostgreSQL
import ServerStore

/// A snapshot of the PostgreSQL store: one pooled connection held until
/// `close`, in a REPEATABLE READ READ ONLY transaction (one snapshot, no
/// row lock). Closing rolls it back and gives the connection back; a
/// connection that broke is dropped by the pool.
///
/// Used by one thread at a time, hence `@unchecked Sendable`.
final class PostgresSnapshotReader: SnapshotReader, @unchecked Sendable {
    private let pool: ConnectionPool
    private var connection: PostgresConnection?

    init(pool: ConnectionPool) throws(ServerError) {
        self.pool = pool
        let connection = try pool.checkOut()
        let session = PostgresSession(connection: connection, locksReports: false)
        do throws(ServerError) {
            try session.script("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            // The snapshot waits on a reader as slow as its network; it holds no row lock.
            try session.script("SET LOCAL idle_in_transaction_session_timeout = 0")
        } catch {
            session.rollBack()
            pool.checkIn(connection)
            throw error
        }
        self.connection = connection
    }

    func read<T>(_ body: (any StorageSession) throws -> T) throws(ServerError) -> T {
        guard let connection else { throw ServerError.internal("a closed snapshot was read") }
        return try PostgresSession(connection: connection, locksReports: false).run(body)
    }

    func close() {
        guard let connection else { return }
        self.connection = nil
        if connection.isHealthy {
            PostgresSession(connection: connection, locksReports: false).rollBack()
        }
        pool.checkIn(connection)
    }

    deinit { close() }
}
