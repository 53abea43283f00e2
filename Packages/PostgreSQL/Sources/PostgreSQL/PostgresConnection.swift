import Foundation
internal import CLibPQ

/// One connection to a PostgreSQL server through libpq.
///
/// Owns its `PGconn`: closed in `deinit`, and at once when connecting fails.
/// Not Sendable: libpq connections are not to be used from two threads at
/// once, so each has one owner at a time (a pool hands a connection to one
/// request, which gives it back). Statements are prepared once per connection,
/// by their SQL text, and run with parameters; no value is ever put into SQL.
///
/// Every exchange with the server has a deadline (`answerLimit`): libpq's
/// non-blocking calls and `poll` on its socket, never a read that waits as
/// long as TCP does. Past the deadline (a network that silently drops
/// packets, or one far too slow) the connection is shut and counts as broken
/// from then on, so that it is never used again.
public final class PostgresConnection {
    private let connection: OpaquePointer
    /// Seconds one exchange (a statement sent and its whole result read) may take.
    public let answerLimit: TimeInterval
    /// Set once an exchange missed its deadline: the socket is shut.
    private var abandoned = false
    /// Where this connection goes, without the password.
    public let url: PostgresURL
    private var prepared: [String: String] = [:]
    /// The SQL of a statement `send` sent whose result no one has read yet.
    private var pending: String?

    /// The isolation of a transaction.
    public enum Isolation: String, Sendable {
        case readCommitted = "READ COMMITTED"
        case repeatableRead = "REPEATABLE READ"
        case serializable = "SERIALIZABLE"
    }

    /// Connects to `url` within `connectTimeoutSeconds` (libpq counts at least 2);
    /// the error is one line naming the server (never the password). TCP
    /// keepalives and `tcp_user_timeout` are on, so the kernel too gives up
    /// on a peer that stopped answering.
    public init(
        url: PostgresURL, applicationName: String = "jqc-server", connectTimeoutSeconds: Int = 10,
        answerLimit: TimeInterval = 60
    ) throws(PostgresError) {
        self.url = url
        self.answerLimit = answerLimit
        let keywords = [
            "dbname", "application_name", "connect_timeout", "client_encoding",
            "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout",
        ]
        let values = [
            url.text, applicationName, String(connectTimeoutSeconds), "UTF8",
            "1", "10", "5", "3", String(Int(answerLimit * 1000)),
        ]
        let raw: OpaquePointer? = Self.withCStrings(keywords) { keys in
            Self.withCStrings(values) { vals in PQconnectdbParams(keys, vals, 1) }
        }
        guard let raw else {
            throw PostgresError(
                .connection, "cannot connect to PostgreSQL at \(url.shown): out of memory", context: url.shown)
        }
        guard PQstatus(raw) == CONNECTION_OK else {
            let native = Self.oneLine(PQerrorMessage(raw))
            PQfinish(raw)
            throw Self.connectError(native, url: url)
        }
        // Sending never blocks either: what the socket cannot take yet is flushed under the deadline.
        PQsetnonblocking(raw, 1)
        connection = raw
    }

    deinit {
        PQfinish(connection)
    }

    /// True while the connection is usable.
    public var isHealthy: Bool { !abandoned && PQstatus(connection) == CONNECTION_OK }

    /// True when the connection is usable and in no transaction: the only
    /// state in which a pool may hand it to the next request.
    public var isReusable: Bool { isHealthy && PQtransactionStatus(connection) == PQTRANS_IDLE }

    /// The server's version number (150020 for 15.20).
    public var serverVersion: Int { Int(PQserverVersion(connection)) }

    /// Runs one statement with parameters (`$1`, `$2`, ...), prepared once per
    /// connection, and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> [PostgresRow] {
        discardPending()
        let name = try statementName(for: sql, parameterCount: parameters.count)
        let sent = try Self.withParameters(parameters) { values, lengths, formats in
            PQsendQueryPrepared(connection, name, Int32(parameters.count), values, lengths, formats, 0)
        }
        return try rows(of: try exchange(sent, sql: sql), sql: sql)
    }

    /// Runs one statement with parameters, as `query` does, and hands its
    /// result to `body` in place: each value's bytes as libpq holds them, no
    /// Swift string made of any value `body` does not ask one for (for reads of
    /// many rows, such as an export's pages). The view and its bytes are only
    /// valid inside `body`: the result is cleared when this returns.
    public func withResult<T>(
        _ sql: String, _ parameters: [PostgresValue] = [],
        _ body: (PostgresResultView) throws(PostgresError) -> T
    ) throws(PostgresError) -> T {
        let result: OpaquePointer?
        if let sent = pending, sent == sql, parameters.isEmpty {
            result = try takePending()
        } else {
            discardPending()
            let name = try statementName(for: sql, parameterCount: parameters.count)
            let sent = try Self.withParameters(parameters) { values, lengths, formats in
                PQsendQueryPrepared(connection, name, Int32(parameters.count), values, lengths, formats, 0)
            }
            result = try exchange(sent, sql: sql)
        }
        let checked = try check(result, sql: sql)
        defer { PQclear(checked) }
        return try body(PostgresResultView(checked))
    }

    /// Sends one statement with no parameters (a cursor's next `FETCH`)
    /// without waiting for it, so that the server works on it while the
    /// caller does something else; the next `withResult` of the same SQL reads
    /// its result. Any other statement run first waits for it and drops its
    /// result (and its error, which the transaction then reports).
    public func send(_ sql: String) throws(PostgresError) {
        discardPending()
        guard !abandoned, PQsendQuery(connection, sql) == 1 else {
            throw PostgresError(
                isHealthy ? .statement : .connection, "PostgreSQL: \(Self.oneLine(PQerrorMessage(connection)))",
                context: sql)
        }
        try flush(until: Date().addingTimeInterval(answerLimit), sql: sql)
        pending = sql
    }

    /// Runs SQL text with no parameters, possibly several statements (migrations).
    public func script(_ sql: String) throws(PostgresError) {
        discardPending()
        _ = try rows(of: try exchange(abandoned ? 0 : PQsendQuery(connection, sql), sql: sql), sql: sql)
    }

    /// Runs `body` in a transaction of `isolation`: committed when it returns,
    /// rolled back when it throws (and the error passed on).
    public func transaction<T>(
        _ isolation: Isolation = .readCommitted,
        _ body: (PostgresConnection) throws(PostgresError) -> T
    ) throws(PostgresError) -> T {
        try script("BEGIN ISOLATION LEVEL \(isolation.rawValue)")
        do {
            let value = try body(self)
            try script("COMMIT")
            return value
        } catch {
            if isHealthy { try? script("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` in a transaction, again while it fails with a transient
    /// error (a serialization failure, a deadlock), up to `attempts` times.
    public func retrying<T>(
        _ isolation: Isolation = .serializable, attempts: Int = 8,
        _ body: (PostgresConnection) throws(PostgresError) -> T
    ) throws(PostgresError) -> T {
        var attempt = 1
        while true {
            do {
                return try transaction(isolation, body)
            } catch  where (error.code == .serializationFailure || error.code == .deadlock) && attempt < attempts {
                attempt += 1
                // A short random wait, so the transactions that collided do not collide again.
                usleep(UInt32.random(in: 1_000...(5_000 * UInt32(attempt))))
            }
        }
    }

    // MARK: - libpq plumbing

    private func statementName(for sql: String, parameterCount: Int) throws(PostgresError) -> String {
        if let name = prepared[sql] { return name }
        let name = "s\(prepared.count + 1)"
        _ = try rows(
            of: try exchange(
                abandoned ? 0 : PQsendPrepare(connection, name, sql, Int32(parameterCount), nil), sql: sql), sql: sql)
        prepared[sql] = name
        return name
    }

    /// The result of the statement `send` sent (nil when the connection
    /// broke), with the connection made ready for the next statement.
    private func takePending() throws(PostgresError) -> OpaquePointer? {
        let sql = pending ?? ""
        pending = nil
        return try collect(until: Date().addingTimeInterval(answerLimit), sql: sql)
    }

    /// Waits for a statement `send` sent and drops its result (a missed
    /// deadline leaves the connection abandoned, which the next statement reports).
    private func discardPending() {
        guard pending != nil else { return }
        do throws(PostgresError) {
            if let result = try takePending() { PQclear(result) }
        } catch {
            _ = error
        }
    }

    /// After a `PQsend...` call returned `sent`: its result, read within
    /// `answerLimit` (nil when sending failed or the connection broke, for
    /// `check` to report). Past the deadline the connection is abandoned.
    private func exchange(_ sent: Int32, sql: String) throws(PostgresError) -> OpaquePointer? {
        guard sent == 1 else { return nil }
        let deadline = Date().addingTimeInterval(answerLimit)
        try flush(until: deadline, sql: sql)
        return try collect(until: deadline, sql: sql)
    }

    /// Sends what libpq still holds of the statement, waiting for room in the socket until `deadline`.
    private func flush(until deadline: Date, sql: String) throws(PostgresError) {
        while true {
            let state = PQflush(connection)
            guard state == 1 else { return }
            let readable = try wait(writing: true, until: deadline, sql: sql)
            // The server may answer before it took all we send; libpq must read to go on.
            if readable && PQconsumeInput(connection) == 0 { return }
        }
    }

    /// Every result of the statement sent, read until `deadline`: the first
    /// failed one, or else the last (as `PQexec` gives), or nil when the connection broke.
    private func collect(until deadline: Date, sql: String) throws(PostgresError) -> OpaquePointer? {
        var kept: OpaquePointer?
        while true {
            while PQisBusy(connection) == 1 {
                _ = try wait(writing: false, until: deadline, sql: sql)
                if PQconsumeInput(connection) == 0 && PQisBusy(connection) == 1 {
                    // The connection broke with the statement unanswered: never to be used again.
                    if let previous = kept { PQclear(previous) }
                    _ = abandon(sql: sql)
                    return nil
                }
            }
            guard let result = PQgetResult(connection) else { return kept }
            if let previous = kept,
                ![PGRES_COMMAND_OK, PGRES_EMPTY_QUERY, PGRES_TUPLES_OK].contains(PQresultStatus(previous))
            {
                PQclear(result)
            } else {
                if let previous = kept { PQclear(previous) }
                kept = result
            }
        }
    }

    /// Waits until the socket is readable (or, `writing`, writable) or
    /// `deadline` passes, which abandons the connection and throws. True when readable.
    private func wait(writing: Bool, until deadline: Date, sql: String) throws(PostgresError) -> Bool {
        let socket = PQsocket(connection)
        guard socket >= 0 else { return true }
        while true {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { throw abandon(sql: sql) }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left * 1000 + 1, 60_000)))
            if ready < 0 && errno == EINTR { continue }
            if ready != 0 { return ready < 0 || descriptor.revents & ~Int16(POLLOUT) != 0 }
        }
    }

    /// Shuts the socket of a connection whose server did not answer in time;
    /// it is broken from then on, and the error says so.
    private func abandon(sql: String) -> PostgresError {
        abandoned = true
        pending = nil
        let socket = PQsocket(connection)
        if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
        return PostgresError(
            .connection,
            "PostgreSQL at \(url.host):\(url.port) did not answer within \(Int(answerLimit)) seconds; the connection is closed",
            context: sql)
    }

    /// A result that succeeded, for the caller to clear; an error result is
    /// cleared and becomes a `PostgresError`.
    private func check(_ result: OpaquePointer?, sql: String) throws(PostgresError) -> OpaquePointer {
        guard let result else {
            throw PostgresError(
                isHealthy ? .statement : .connection, "PostgreSQL: \(Self.oneLine(PQerrorMessage(connection)))",
                context: sql)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY, PGRES_TUPLES_OK:
            return result
        default:
            defer { PQclear(result) }
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message =
                PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? Self.oneLine(PQresultErrorMessage(result))
            var code = PostgresError.code(sqlState: state)
            if code == .statement && !isHealthy { code = .connection }
            throw PostgresError(code, "PostgreSQL: \(Self.oneLine(message))", sqlState: state, context: sql)
        }
    }

    /// The rows of a result, which is cleared; an error result becomes a `PostgresError`.
    private func rows(of result: OpaquePointer?, sql: String) throws(PostgresError) -> [PostgresRow] {
        let result = try check(result, sql: sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK else { return [] }
        let fieldCount = Int(PQnfields(result))
        var columns: [String: Int] = [:]
        for field in 0..<fieldCount {
            columns[String(cString: PQfname(result, Int32(field)))] = field
        }
        let rowCount = Int(PQntuples(result))
        var rows: [PostgresRow] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            var values: [String?] = []
            values.reserveCapacity(fieldCount)
            for field in 0..<fieldCount {
                if PQgetisnull(result, Int32(row), Int32(field)) == 1 {
                    values.append(nil)
                } else {
                    let length = Int(PQgetlength(result, Int32(row), Int32(field)))
                    let pointer = PQgetvalue(result, Int32(row), Int32(field))
                    values.append(
                        pointer.map {
                            String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self)
                        } ?? "")
                }
            }
            rows.append(PostgresRow(columns: columns, values: values))
        }
        return rows
    }

    private static func withParameters<T>(
        _ parameters: [PostgresValue],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    )
        throws(PostgresError) -> T
    {
        var encoded: [(bytes: [UInt8], binary: Bool)?] = []
        for parameter in parameters { encoded.append(try parameter.wire()) }
        // Each value is copied into memory that lives until libpq has sent it.
        var buffers: [UnsafeMutablePointer<CChar>?] = encoded.map { value in
            guard let value else { return nil }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(value.bytes.count, 0) + 1)
            value.bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress {
                    UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: raw.count)
                }
            }
            buffer[value.bytes.count] = 0
            return buffer
        }
        defer { for buffer in buffers { buffer?.deallocate() } }
        let lengths = encoded.map { Int32($0?.bytes.count ?? 0) }
        let formats = encoded.map { Int32(($0?.binary ?? false) ? 1 : 0) }
        return buffers.withUnsafeMutableBufferPointer { pointers in
            pointers.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }

    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for copy in copies { free(copy) } }
        return copies.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private static func oneLine(_ text: UnsafePointer<CChar>?) -> String {
        oneLine(text.map { String(cString: $0) } ?? "unknown error")
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }

    private static func connectError(_ native: String, url: PostgresURL) -> PostgresError {
        let lower = native.lowercased()
        if lower.contains("password authentication failed") || lower.contains("no password supplied") {
            return PostgresError(
                .authentication,
                "PostgreSQL at \(url.host):\(url.port) refused user '\(url.user)': check the user and password in the URL",
                sqlState: "28P01", context: url.shown)
        }
        if lower.contains("database \"") && lower.contains("does not exist") {
            return PostgresError(
                .databaseMissing,
                "PostgreSQL at \(url.host):\(url.port) has no database '\(url.database)'; create it first (createdb)",
                sqlState: "3D000", context: url.shown)
        }
        return PostgresError(
            .connection, "cannot connect to PostgreSQL at \(url.host):\(url.port) (\(native))", context: url.shown)
    }
}
