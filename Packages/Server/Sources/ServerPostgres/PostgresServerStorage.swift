import Foundation
import PostgreSQL
import ServerStore

/// The server's PostgreSQL store (`--db postgres://...`): any number of
/// `jqc-server` processes may serve one database, because every rule that
/// two requests could race on is settled by PostgreSQL, never by a lock in
/// one process.
///
/// A `read` runs in a read-only REPEATABLE READ transaction (one snapshot).
/// A `write` runs in a READ COMMITTED transaction in which every report it
/// reads is locked (`FOR UPDATE`) until commit, so what the rules decided
/// from a report still holds when its next revision is written; counters are
/// single rows updated in place (row locks order their writers); and unique
/// keys (report and photo local ids, revision numbers, refresh tokens) refuse
/// the second of two racing inserts. A write that loses such a race (a unique
/// violation, a serialization failure, a deadlock) is run again from the
/// start on a fresh snapshot, where it finds the winner's rows: the same
/// report sent to two instances at once becomes one record, and both answers
/// carry its server id and revision.
public final class PostgresServerStorage: ServerStorage, @unchecked Sendable {
    // Immutable after init; the pool is safe to share.
    let pool: ConnectionPool
    /// Runs of one write before it is answered 503.
    private let attempts = 8

    init(pool: ConnectionPool) {
        self.pool = pool
    }

    /// Connects, checks the database is ours (or empty), migrates it under an
    /// advisory lock, and opens the photo store on the same pool. Uploads
    /// stream to `settings.uploadDirectory` (which must be this user's own,
    /// mode 0700), or a folder made fresh in the system's temporary directory.
    public static func open(url text: String, settings: StorageOpener.Settings) throws(ServerError) -> OpenedDatabase {
        let url: PostgresURL
        do throws(PostgresError) {
            url = try PostgresURL(text)
        } catch {
            throw ServerError.internal(error.message)
        }
        let pool = ConnectionPool(url: url, capacity: settings.connections)
        do throws(PostgresError) {
            let first = try pool.connect(statementLimit: ConnectionPool.migrationLimit)
            try PostgresMigrations.migrate(first)
        } catch {
            throw ServerError.internal(error.message)
        }
        let store = PostgresServerStorage(pool: pool)
        // Without --upload-dir, a folder made fresh for this run: a fixed name in a shared
        // temporary folder could have been made first by someone else.
        var uploads = settings.uploadDirectory ?? ""
        if settings.uploadDirectory == nil { uploads = try PrivateFolder.fresh(prefix: "jqc-server-uploads-") }
        let photos = try PostgresPhotoStore(store: store, scratchDirectory: uploads)
        return OpenedDatabase(
            store: store, photos: photos, uploadDirectory: uploads,
            uploads: PostgresUploadStore(store: store, scratchDirectory: uploads),
            uploadDirectoryIsTemporary: settings.uploadDirectory == nil)
    }

    public func read<T>(_ body: (any StorageSession) throws -> T) throws(ServerError) -> T {
        try reading { session throws(ServerError) in try session.run(body) }
    }

    public func write<T>(_ body: (any StorageSession) throws -> T) throws(ServerError) -> T {
        try writing { session throws(ServerError) in try session.run(body) }
    }

    public func openExport(_ query: ExportQuery) throws(ServerError) -> any ExportReader {
        try PostgresExportReader(pool: pool, query: query)
    }

    public func openSnapshot() throws(ServerError) -> any SnapshotReader {
        try PostgresSnapshotReader(pool: pool)
    }

    /// `body` in a read-only REPEATABLE READ transaction (one snapshot).
    func reading<T>(_ body: (PostgresSession) throws(ServerError) -> T) throws(ServerError) -> T {
        try pool.with { connection throws(ServerError) -> T in
            try Self.transaction(
                PostgresSession(connection: connection, locksReports: false),
                "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
        }
    }

    /// `body` in a READ COMMITTED transaction with reports locked as read,
    /// run again from the start when it loses a race.
    func writing<T>(_ body: (PostgresSession) throws(ServerError) -> T) throws(ServerError) -> T {
        try pool.with { connection throws(ServerError) -> T in
            var attempt = 1
            while true {
                let session = PostgresSession(connection: connection, locksReports: true)
                do throws(ServerError) {
                    return try Self.transaction(session, "BEGIN ISOLATION LEVEL READ COMMITTED", body)
                } catch {
                    guard session.lostRace, attempt < attempts else { throw error }
                    attempt += 1
                    // A short random pause, so the writes that collided do not collide again.
                    usleep(UInt32.random(in: 500...(2_000 * UInt32(attempt))))
                }
            }
        }
    }

    /// Begins with `begin`, runs `body`, commits; rolls back when anything throws.
    private static func transaction<T>(
        _ session: PostgresSession, _ begin: String,
        _ body: (PostgresSession) throws(ServerError) -> T
    ) throws(ServerError) -> T {
        do throws(ServerError) {
            try session.script(begin)
            let value = try body(session)
            try session.script("COMMIT")
            return value
        } catch {
            session.rollBack()
            throw error
        }
    }
}

extension PostgresServerStorage {
    /// PostgreSQL's own tools back it up: `pg_dump -Fc` (photos are in the database).
    public func backup(to path: String) throws(ServerError) {
        throw ServerError.badRequest(
            "'admin backup' copies a SQLite database; back up PostgreSQL with 'pg_dump -Fc' (docs/deploy.md, Backups and restores)"
        )
    }
}
