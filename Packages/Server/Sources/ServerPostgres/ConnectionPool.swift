import Foundation
import PostgreSQL
import ServerStore

/// At most `capacity` connections to one PostgreSQL database, opened as
/// requests need them and kept for the next. A request waits at most
/// `longestWait` for one, then is answered 503 with `Retry-After`, so a burst
/// past capacity is shed rather than held past the client's timeout. A
/// connection that broke, missed a deadline or is still inside a transaction
/// is closed on return, never handed out again, and replaced on demand.
final class ConnectionPool: @unchecked Sendable {
    // `idle` and `opened` are read and written only with `condition` locked.
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var opened = 0
    private let url: PostgresURL
    private let capacity: Int
    private let longestWait: TimeInterval

    init(url: PostgresURL, capacity: Int, longestWait: TimeInterval = 3) {
        self.url = url
        self.capacity = max(1, capacity)
        self.longestWait = longestWait
    }

    /// Runs `body` with a connection of its own, given back afterwards.
    func with<T>(_ body: (PostgresConnection) throws(ServerError) -> T) throws(ServerError) -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// A new connection whose waits are bounded: a row lock held elsewhere
    /// longer than `lockWait`, or a statement running past `statementLimit`,
    /// fails (and the request is answered 503) instead of holding its worker;
    /// connecting takes at most `connectLimit`, and any exchange with the
    /// server at most `answerLimit` (a network that stalls or silently drops
    /// packets), past which the connection is closed.
    ///
    /// The answer limit is the statement limit and one second for the way
    /// there and back: a statement that is merely slow is stopped by
    /// PostgreSQL first and its connection kept. A request on a stalled link
    /// is so answered 503 within `answerLimit` (or `connectLimit` and
    /// `answerLimit` when it had to connect): under the 10 seconds within
    /// which a person at a device expects an answer, and far under the
    /// clients' own timeouts.
    func connect(statementLimit: Int = ConnectionPool.statementLimit) throws(PostgresError) -> PostgresConnection {
        let connection = try PostgresConnection(
            url: url, connectTimeoutSeconds: Self.connectLimit,
            answerLimit: TimeInterval(statementLimit + 1))
        // A transaction left open by a client that vanished (its network split) holds its row
        // locks until PostgreSQL ends it: after `idleInTransaction` seconds, not TCP's hours.
        try connection.script(
            "SET lock_timeout = '\(Self.lockWait)s'; SET statement_timeout = '\(statementLimit)s'; "
                + "SET idle_in_transaction_session_timeout = '\(Self.idleInTransaction)s'")
        return connection
    }

    /// Connections open or being opened, and those checked out by a request now.
    var counts: ConnectionCounts {
        condition.lock()
        defer { condition.unlock() }
        return ConnectionCounts(open: opened, inUse: opened - idle.count)
    }

    /// Seconds a statement waits for a row lock.
    static let lockWait = 3
    /// Seconds one statement of a request may run.
    static let statementLimit = 5
    /// Seconds one statement of a migration may run (at start, before any request).
    static let migrationLimit = 60
    /// Seconds PostgreSQL keeps a transaction whose client sends nothing (an
    /// export's snapshot, which waits on its reader, turns this off for itself).
    static let idleInTransaction = 15
    /// Seconds connecting may take (libpq's `connect_timeout`).
    static let connectLimit = 4

    /// A connection held past one closure (an export's cursor); it must be
    /// handed back with `checkIn`, broken or not.
    func checkOut() throws(ServerError) -> PostgresConnection {
        let deadline = Date().addingTimeInterval(longestWait)
        condition.lock()
        while true {
            if let connection = idle.popLast() {
                if connection.isReusable {
                    condition.unlock()
                    return connection
                }
                opened -= 1
                continue
            }
            if opened < capacity {
                opened += 1
                condition.unlock()
                do throws(PostgresError) {
                    return try connect()
                } catch {
                    condition.lock()
                    opened -= 1
                    condition.signal()
                    condition.unlock()
                    throw ServerError.databaseUnreachable(error.message)
                }
            }
            if !condition.wait(until: deadline) {
                condition.unlock()
                throw ServerError.busy()
            }
        }
    }

    /// Takes back a connection of `checkOut`; one broken, abandoned past a
    /// deadline, or not idle (a transaction left open when its request
    /// failed) is dropped, and so closed.
    func checkIn(_ connection: PostgresConnection) {
        condition.lock()
        if connection.isReusable {
            idle.append(connection)
        } else {
            opened -= 1
        }
        condition.signal()
        condition.unlock()
    }
}
