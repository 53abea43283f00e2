import Foundation
import PostgreSQL
import ServerCore

/// At most `capacity` connections to one PostgreSQL database, opened as
/// requests need them and kept for the next. A request waits at most
/// `longestWait` for one, then is answered 503 with `Retry-After`, so a burst
/// past capacity is shed rather than held past the client's timeout. A
/// connection that broke is dropped on return and replaced on demand.
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
    /// fails (and the request is answered 503) instead of holding its worker.
    func connect() throws(PostgresError) -> PostgresConnection {
        let connection = try PostgresConnection(url: url)
        try connection.script("SET lock_timeout = '\(Self.lockWait)s'; SET statement_timeout = '\(Self.statementLimit)s'")
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
    /// Seconds one statement may run.
    static let statementLimit = 60

    /// A connection held past one closure (an export's cursor); it must be
    /// handed back with `checkIn`, broken or not.
    func checkOut() throws(ServerError) -> PostgresConnection {
        let deadline = Date().addingTimeInterval(longestWait)
        condition.lock()
        while true {
            if let connection = idle.popLast() {
                if connection.isHealthy {
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
                    throw ServerError.unavailable("the server cannot reach its database right now; retry in 5 seconds", retryAfter: 5)
                }
            }
            if !condition.wait(until: deadline) {
                condition.unlock()
                throw ServerError.busy()
            }
        }
    }

    /// Takes back a connection of `checkOut`; a broken one is dropped.
    func checkIn(_ connection: PostgresConnection) {
        condition.lock()
        if connection.isHealthy {
            idle.append(connection)
        } else {
            opened -= 1
        }
        condition.signal()
        condition.unlock()
    }
}
