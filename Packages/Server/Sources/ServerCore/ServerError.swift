import SQLite

/// The one error type of the server: an HTTP status, the contract's machine
/// code and a one-line message for the person reading the response.
///
/// Every failure a request can meet ends as one of these and is written as
/// the contract's error envelope; nothing else reaches the client.
struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status the error is answered with.
    let status: Int
    /// The contract's machine code (`BAD_REQUEST`, `AUTH_REQUIRED`, ...).
    let code: String
    /// What went wrong, quoting the offending value, in one line.
    let message: String
    /// Seconds the client should wait before retrying (429 and 503).
    let retryAfter: Int?

    /// Makes an error with an explicit status and code.
    init(status: Int, code: String, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    /// 400: the request cannot be read.
    static func badRequest(_ message: String) -> ServerError {
        ServerError(status: 400, code: "BAD_REQUEST", message)
    }

    /// 401: no token, or one that is expired, forged or revoked.
    static func authRequired(_ message: String = "sign in first: the access token is missing, expired or revoked") -> ServerError {
        ServerError(status: 401, code: "AUTH_REQUIRED", message)
    }

    /// 403: the role or the ownership does not allow it.
    static func forbidden(_ message: String) -> ServerError {
        ServerError(status: 403, code: "FORBIDDEN", message)
    }

    /// 404: nothing with that id, or no such route.
    static func notFound(_ message: String) -> ServerError {
        ServerError(status: 404, code: "NOT_FOUND", message)
    }

    /// 405: the path exists but not with this method.
    static func methodNotAllowed(_ method: String, path: String) -> ServerError {
        ServerError(status: 405, code: "METHOD_NOT_ALLOWED", "\(method) is not allowed on \(path)")
    }

    /// 409: the base revision is not the current one.
    static func conflict(_ message: String) -> ServerError {
        ServerError(status: 409, code: "CONFLICT", message)
    }

    /// 413: the body or the batch is over the limit.
    static func tooLarge(_ message: String) -> ServerError {
        ServerError(status: 413, code: "TOO_LARGE", message)
    }

    /// 422: well-formed but not acceptable (a photo hash mismatch, invalid answers).
    static func unprocessable(code: String, _ message: String) -> ServerError {
        ServerError(status: 422, code: code, message)
    }

    /// 429: too many attempts; try again after `retryAfter` seconds.
    static func tooManyRequests(_ message: String, retryAfter: Int) -> ServerError {
        ServerError(status: 429, code: "RATE_LIMITED", message, retryAfter: retryAfter)
    }

    /// 503: temporarily unavailable; try again after `retryAfter` seconds.
    static func unavailable(_ message: String, retryAfter: Int) -> ServerError {
        ServerError(status: 503, code: "UNAVAILABLE", message, retryAfter: retryAfter)
    }

    /// 500: a failure of the server itself (the disk, the database); transient for clients.
    static func `internal`(_ message: String) -> ServerError {
        ServerError(status: 500, code: "INTERNAL", message)
    }

    /// 500 for a failure of the database underneath; the message is SQLite's one line.
    /// A database held by another connection past the busy timeout is 503 with `Retry-After`.
    static func database(_ error: SQLiteError) -> ServerError {
        if error.code == .busy { return busy() }
        return ServerError(status: 500, code: "INTERNAL", "the server's database failed: \(error.message)")
    }

    /// 503: the database or the request queue is too busy right now.
    static func busy(retryAfter: Int = 2) -> ServerError {
        unavailable("the server is busy; retry in \(retryAfter) seconds", retryAfter: retryAfter)
    }

    /// 422: a report already has as many revisions as the server keeps.
    static func revisionLimit(_ serverID: String, limit: Int) -> ServerError {
        unprocessable(code: "REPORT_INVALID", "report '\(serverID)' already has \(limit) revisions, the most this server keeps")
    }

    /// 415: a JSON route was sent something else.
    static func unsupportedMediaType(_ message: String) -> ServerError {
        ServerError(status: 415, code: "UNSUPPORTED_MEDIA_TYPE", message)
    }

    var description: String { "\(status) \(code): \(message)" }
}
