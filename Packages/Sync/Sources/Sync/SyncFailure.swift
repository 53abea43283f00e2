/// Why a network step of the cycle failed, as the cycle needs to know it:
/// try later, sign in again, or the server refused the request itself.
/// The engine derives it from `APIError`; the cycle never sees the network.
public struct SyncFailure: Sendable, Hashable, Error {
    /// What the cycle does about it.
    public enum Kind: Sendable, Hashable {
        /// Offline, dropped, 5xx, 429: try again later, unchanged.
        case transient
        /// The session is over: nothing more can be sent until `jqc login`.
        case authRequired
        /// The server answered and refused the request (4xx, not the API): retried with backoff.
        case refused
    }

    /// The code of a failure where the server could not be reached at all.
    public static let offlineCode = Code.offline.rawValue

    /// What the cycle does about it.
    public var kind: Kind
    /// A machine code (`SYNC_OFFLINE`, `UNAVAILABLE`, `AUTH_REQUIRED`, ...), kept as the report's last error
    /// code: the raw value of a `SyncFailure.Code`, or of an `APIError.Code`.
    public var code: String
    /// One line for a person.
    public var message: String
    /// Seconds the server asked to wait, if it said.
    public var retryAfter: Double?

    /// A failure with a code of the cycle's catalogue.
    public init(kind: Kind, code: Code, message: String, retryAfter: Double? = nil) {
        self.init(kind: kind, code: code.rawValue, message: message, retryAfter: retryAfter)
    }

    /// A failure with a code as a report keeps it (its raw value).
    public init(kind: Kind, code: String, message: String, retryAfter: Double? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }
}
