import Foundation
internal import CLibPQ

/// One connection to a PostgreSQL server through libpq.
///
/// Owns its `PGconn`: closed in `deinit`, and at once when connecting fails.
/// Not Sendable: libpq connections are not to be used from two threads at
/// once, so each has one owner at a time (a pool hands a connection to one
/// request, which gives it back). Statements are prepared once per connection,
/// by their SQL text, and run with parameters; no value is ever put into SQL.
public final class PostgresConnection {
    private let connection: OpaquePointer
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

    /// Connects to `url`; the error is one line naming the server (never the password).
    public init(url: PostgresURL, applicationName: String = "jqc-server", connectTimeoutSeconds: Int = 10) throws(PostgresError) {
        self.url = url
        let keywords = ["dbname", "application_name", "connect_timeout", "client_encoding"]
        let values = [url.text, applicationName, String(connectTimeoutSeconds), "UTF8"]
        let raw: OpaquePointer? = Self.withCStrings(keywords) { keys in
            Self.withCStrings(values) { vals in PQconnectdbParams(keys, vals, 1) }
        }
        guard let raw else {
            throw PostgresError(.connection, "cannot connect to PostgreSQL at \(url.shown): out of memory", context: url.shown)
        }
        guard PQstatus(raw) == CONNECTION_OK else {
            let native = Self.oneLine(PQerrorMessage(raw))
            PQfinish(raw)
            throw Self.connectError(native, url: url)
        }
        connection = raw
    }

    deinit {
        PQfinish(connection)
    }

    /// True while the connection is usable.
    public var isHealthy: Bool { PQstatus(connection) == CONNECTION_OK }

    /// The server's version number (150020 for 15.20).
    public var serverVersion: Int { Int(PQserverVersion(connection)) }

    /// Runs one statement with parameters (`$1`, `$2`, ...), prepared once per
    /// connection, and returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> [PostgresRow] {
        discardPending()
        let name = try statementName(for: sql, parameterCount: parameters.count)
        let result = try Self.withParameters(parameters) { values, lengths, formats in
            PQexecPrepared(connection, name, Int32(parameters.count), values, lengths, formats, 0)
        }
        return try rows(of: result, sql: sql)
    }

    /// Runs one statement with parameters, as `query` does, and hands its
    /// result to `body` in place: each value's bytes as libpq holds them, no
    /// Swift string made of any value `body` does not ask one for (for reads of
    /// many rows, such as an export's pages). The view and its bytes are only
    /// valid inside `body`: the result is cleared when this returns.
    public func withResult<T>(_ sql: String, _ parameters: [PostgresValue] = [],
                              _ body: (PostgresResultView) throws(PostgresError) -> T) throws(PostgresError) -> T {
        let result: OpaquePointer?
        if let sent = pending, sent == sql, parameters.isEmpty {
            result = takePending()
        } else {
            discardPending()
            let name = try statementName(for: sql, parameterCount: parameters.count)
            result = try Self.withParameters(parameters) { values, lengths, formats in
                PQexecPrepared(connection, name, Int32(parameters.count), values, lengths, formats, 0)
            }
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
        guard PQsendQuery(connection, sql) == 1 else {
            throw PostgresError(isHealthy ? .statement : .connection, "PostgreSQL: \(Self.oneLine(PQerrorMessage(connection)))",
                                context: sql)
        }
        pending = sql
    }

    /// Runs SQL text with no parameters, possibly several statements (migrations).
    public func script(_ sql: String) throws(PostgresError) {
        discardPending()
        let result = PQexec(connection, sql)
        _ = try rows(of: result, sql: sql)
    }

    /// Runs `body` in a transaction of `isolation`: committed when it returns,
    /// rolled back when it throws (and the error passed on).
    public func transaction<T>(_ isolation: Isolation = .readCommitted,
                               _ body: (PostgresConnection) throws(PostgresError) -> T) throws(PostgresError) -> T {
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
    public func retrying<T>(_ isolation: Isolation = .serializable, attempts: Int = 8,
                            _ body: (PostgresConnection) throws(PostgresError) -> T) throws(PostgresError) -> T {
        var attempt = 1
        while true {
            do {
                return try transaction(isolation, body)
            } catch where (error.code == .serializationFailure || error.code == .deadlock) && attempt < attempts {
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
        let result = PQprepare(connection, name, sql, Int32(parameterCount), nil)
        _ = try rows(of: result, sql: sql)
        prepared[sql] = name
        return name
    }

    /// The result of the statement `send` sent (nil when the connection
    /// broke), with the connection made ready for the next statement.
    private func takePending() -> OpaquePointer? {
        pending = nil
        let result = PQgetResult(connection)
        // A single statement has one result; the call that returns nil ends it.
        while let more = PQgetResult(connection) { PQclear(more) }
        return result
    }

    /// Waits for a statement `send` sent and drops its result.
    private func discardPending() {
        guard pending != nil else { return }
        if let result = takePending() { PQclear(result) }
    }

    /// A result that succeeded, for the caller to clear; an error result is
    /// cleared and becomes a `PostgresError`.
    private func check(_ result: OpaquePointer?, sql: String) throws(PostgresError) -> OpaquePointer {
        guard let result else {
            throw PostgresError(isHealthy ? .statement : .connection, "PostgreSQL: \(Self.oneLine(PQerrorMessage(connection)))",
                                context: sql)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY, PGRES_TUPLES_OK:
            return result
        default:
            defer { PQclear(result) }
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
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
                    values.append(pointer.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self) } ?? "")
                }
            }
            rows.append(PostgresRow(columns: columns, values: values))
        }
        return rows
    }

    private static func withParameters<T>(_ parameters: [PostgresValue],
                                          _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T)
        throws(PostgresError) -> T {
        var encoded: [(bytes: [UInt8], binary: Bool)?] = []
        for parameter in parameters { encoded.append(try parameter.wire()) }
        // Each value is copied into memory that lives until libpq has sent it.
        var buffers: [UnsafeMutablePointer<CChar>?] = encoded.map { value in
            guard let value else { return nil }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(value.bytes.count, 0) + 1)
            value.bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: raw.count) }
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
            return PostgresError(.authentication, "PostgreSQL at \(url.host):\(url.port) refused user '\(url.user)': check the user and password in the URL",
                                 sqlState: "28P01", context: url.shown)
        }
        if lower.contains("database \"") && lower.contains("does not exist") {
            return PostgresError(.databaseMissing, "PostgreSQL at \(url.host):\(url.port) has no database '\(url.database)'; create it first (createdb)",
                                 sqlState: "3D000", context: url.shown)
        }
        return PostgresError(.connection, "cannot connect to PostgreSQL at \(url.host):\(url.port) (\(native))", context: url.shown)
    }
}
