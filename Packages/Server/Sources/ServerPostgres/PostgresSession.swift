import Foundation
import PostgreSQL
import ServerSQL
import ServerStore

/// `StorageSession` on one PostgreSQL connection, inside a transaction of
/// `PostgresServerStorage`. The operations whose SQL both stores share are
/// ServerSQL's (`SQLStatements`, their `?` numbered here); the ones
/// PostgreSQL words its own way live here, one concern a file: accounts,
/// reference data, reports, photos, history, webhooks.
///
/// It remembers the first failure of the transaction, so the store can tell
/// a write that lost a race (run it again) from one that failed.
final class PostgresSession: SQLStatements {
    let connection: PostgresConnection
    /// True inside a write: reports read are locked until commit.
    let locksReports: Bool
    private(set) var firstFailure: PostgresError?

    init(connection: PostgresConnection, locksReports: Bool) {
        self.connection = connection
        self.locksReports = locksReports
    }

    /// True when the transaction failed because a concurrent one won a race.
    var lostRace: Bool {
        guard let code = firstFailure?.code else { return false }
        return code == .uniqueViolation || code == .serializationFailure || code == .deadlock
    }

    /// Every row of a parameterised statement.
    @discardableResult
    func query(_ sql: String, _ values: [PostgresValue] = []) throws(ServerError) -> [PostgresRow] {
        do throws(PostgresError) {
            return try connection.query(sql, values)
        } catch {
            throw failed(error)
        }
    }

    /// Runs SQL without parameters: `BEGIN ...`, `COMMIT`.
    func script(_ sql: String) throws(ServerError) {
        do throws(PostgresError) { try connection.script(sql) } catch { throw failed(error) }
    }

    /// Rolls it back, if the connection still can.
    func rollBack() {
        guard connection.isHealthy else { return }
        do throws(PostgresError) { try connection.script("ROLLBACK") } catch { _ = error }
    }

    private func failed(_ error: PostgresError) -> ServerError {
        if firstFailure == nil { firstFailure = error }
        return ServerError.database(error)
    }

    /// ` FOR UPDATE` inside a write, nothing in a read.
    var lockClause: String { locksReports ? " FOR UPDATE" : "" }

    static let userColumns = "id, username, role, display_name, password_hash, disabled_at"

    /// The presented token's row is locked first, so of two instances
    /// presenting it at once one spends it and the other finds it spent.
    static let refreshTokenLock = " FOR UPDATE OF t, s"

    func rows(_ sql: String, _ values: [SQLParameter]) throws(ServerError) -> [PostgresRow] {
        try query(PostgresPlaceholders.numbered(sql), values.map(\.postgresValue))
    }

    func run(_ sql: String, _ values: [SQLParameter]) throws(ServerError) {
        try query(PostgresPlaceholders.numbered(sql), values.map(\.postgresValue))
    }
}

extension ServerError {
    /// A failure of PostgreSQL as the client sees it: 503 with `Retry-After`
    /// when the database is unreachable, shutting down or lost a race too
    /// often; 507 `STORAGE_FULL` with `Retry-After` when its disk is full
    /// (SQLSTATE 53100); 500 otherwise, with PostgreSQL's one line.
    static func database(_ error: PostgresError) -> ServerError {
        switch error.code {
        case .connection, .unavailable:
            return .databaseUnreachable(error.message)
        case .serializationFailure, .deadlock, .uniqueViolation:
            return .busy()
        case .diskFull:
            return .storageFull()
        default:
            return .internal("the server's database failed: \(error.message)")
        }
    }
}
