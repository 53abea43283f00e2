import Models

/// The one error type of the server: an HTTP status, the contract's machine
/// code and a one-line message for the person reading the response.
///
/// Every failure a request can meet ends as one of these and is written as
/// the contract's error envelope; nothing else reaches the client.
public struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status the error is answered with.
    public let status: Int
    /// The contract's machine code (`BAD_REQUEST`, `AUTH_REQUIRED`, ...), one of the catalogue's constants.
    public let code: Code
    /// What went wrong, quoting the offending value, in one line.
    public let message: String
    /// Seconds the client should wait before retrying (429, 503 and 507).
    public let retryAfter: Int?
    /// What the error envelope carries besides the message, where the contract
    /// says so (a 409 `REVISION_STALE` carries the current review).
    public let data: JSONValue?
    /// Headers the answer carries besides the usual ones (a 409 of an upload: `Upload-Offset`).
    public let headers: [String: String]
    /// Why, for the operator's log and never for the client (PostgreSQL's one
    /// line when the database could not be reached; it names no password).
    public let cause: String?

    /// Makes an error with an explicit status and code.
    public init(
        status: Int, code: Code, _ message: String, retryAfter: Int? = nil, data: JSONValue? = nil,
        headers: [(name: String, value: String)] = [], cause: String? = nil
    ) {
        self.cause = cause
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.data = data
        self.headers = Dictionary(headers, uniquingKeysWith: { _, last in last })
    }

    /// 400: the request cannot be read.
    public static func badRequest(_ message: String) -> ServerError {
        ServerError(status: 400, code: .badRequest, message)
    }

    /// 401: no token, or one that is expired, forged or revoked.
    public static func authRequired(
        _ message: String = "sign in first: the access token is missing, expired or revoked"
    ) -> ServerError {
        ServerError(status: 401, code: .authRequired, message)
    }

    /// 403: the role or the ownership does not allow it.
    public static func forbidden(_ message: String) -> ServerError {
        ServerError(status: 403, code: .forbidden, message)
    }

    /// 404: nothing with that id, or no such route.
    public static func notFound(_ message: String) -> ServerError {
        ServerError(status: 404, code: .notFound, message)
    }

    /// 405: the path exists but not with this method.
    public static func methodNotAllowed(_ method: String, path: String) -> ServerError {
        ServerError(status: 405, code: .methodNotAllowed, "\(method) is not allowed on \(path)")
    }

    /// 409: the base revision is not the current one.
    public static func conflict(_ message: String) -> ServerError {
        ServerError(status: 409, code: .conflict, message)
    }

    /// 413: the body or the batch is over the limit.
    public static func tooLarge(_ message: String) -> ServerError {
        ServerError(status: 413, code: .tooLarge, message)
    }

    /// 414: a request target longer than any route of the server takes.
    public static func targetTooLong(limit: Int) -> ServerError {
        ServerError(
            status: 414, code: .uriTooLong,
            "the request target is longer than \(limit) bytes; no route of this server takes one so long")
    }

    /// 422: well-formed but not acceptable (a photo hash mismatch, invalid answers).
    public static func unprocessable(code: Code, _ message: String) -> ServerError {
        ServerError(status: 422, code: code, message)
    }

    /// 429: too many attempts; try again after `retryAfter` seconds.
    public static func tooManyRequests(_ message: String, retryAfter: Int) -> ServerError {
        ServerError(status: 429, code: .rateLimited, message, retryAfter: retryAfter)
    }

    /// 429 `QUOTA_EXCEEDED`: the caller's stored bytes, revisions of the day or photos of a report are at their limit.
    public static func quotaExceeded(_ message: String, retryAfter: Int) -> ServerError {
        ServerError(status: 429, code: .quotaExceeded, message, retryAfter: retryAfter)
    }

    /// 503: temporarily unavailable; try again after `retryAfter` seconds.
    public static func unavailable(_ message: String, retryAfter: Int) -> ServerError {
        ServerError(status: 503, code: .unavailable, message, retryAfter: retryAfter)
    }

    /// 503 `UNAVAILABLE`: the database could not be reached or did not answer
    /// in time (`cause` says how, in the log); the device retries in 5 seconds.
    public static func databaseUnreachable(_ cause: String) -> ServerError {
        ServerError(
            status: 503, code: .unavailable, "the server cannot reach its database right now; retry in 5 seconds",
            retryAfter: 5, cause: cause)
    }

    /// 500: a failure of the server itself (the disk, the database); transient for clients.
    public static func `internal`(_ message: String) -> ServerError {
        ServerError(status: 500, code: .`internal`, message)
    }

    /// How long a device waits after a 507 `STORAGE_FULL`. Room comes back
    /// when an operator frees some, which takes minutes rather than the
    /// seconds a busy database needs; a minute keeps devices from resending
    /// whole photos into a full disk, yet lets them finish soon after there is room.
    public static let storageFullRetryAfter = 60

    /// 507 `STORAGE_FULL`: the server's disk (or its quota) is full, so
    /// nothing of the request was kept; transient for clients, like a 503.
    public static func storageFull() -> ServerError {
        ServerError(
            status: 507, code: .storageFull,
            "the server's disk is full, so nothing of this request was kept; the server's operator must free space; retry in \(storageFullRetryAfter) seconds",
            retryAfter: storageFullRetryAfter)
    }

    /// 503: the database or the request queue is too busy right now.
    public static func busy(retryAfter: Int = 2) -> ServerError {
        unavailable("the server is busy; retry in \(retryAfter) seconds", retryAfter: retryAfter)
    }

    /// 422: a report already has as many revisions as the server keeps.
    public static func revisionLimit(_ serverID: String, limit: Int) -> ServerError {
        unprocessable(
            code: .reportInvalid, "report '\(serverID)' already has \(limit) revisions, the most this server keeps")
    }

    /// 409 `REVISION_STALE`: a decision on a revision that is no longer the current one; `data` holds the current review.
    public static func revisionStale(_ message: String, review: JSONValue) -> ServerError {
        ServerError(status: 409, code: .revisionStale, message, data: ["review": review])
    }

    /// 409 `ACTION_STATE`: a state change the action's current state does not
    /// allow, with the action as it now stands.
    public static func actionState(_ message: String, action: JSONValue) -> ServerError {
        ServerError(status: 409, code: .actionState, message, data: ["action": action])
    }

    /// 400 `CURSOR_INVALID`: a cursor this server (this generation of its data) did not issue.
    public static func cursorInvalid(_ message: String) -> ServerError {
        ServerError(status: 400, code: .cursorInvalid, message)
    }

    /// 415: a JSON route was sent something else.
    public static func unsupportedMediaType(_ message: String) -> ServerError {
        ServerError(status: 415, code: .unsupportedMediaType, message)
    }

    public var description: String { "\(status) \(code): \(message)" }
}
