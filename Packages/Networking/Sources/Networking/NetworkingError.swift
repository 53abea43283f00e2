/// The one error type of Networking: no usable HTTP response arrived.
public struct NetworkingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why no response arrived; stable, for programs and tests.
    public enum Code: String, Sendable {
        /// The host could not be reached (DNS, refused, no route).
        case unreachable = "UNREACHABLE"
        /// The connect or total timeout passed.
        case timedOut = "TIMED_OUT"
        /// TLS failed, certificate verification included.
        case tls = "TLS"
        /// The response was larger than the limit.
        case tooLarge = "TOO_LARGE"
        /// The connection broke after it was made: nothing, or only part, of an answer arrived.
        /// The server may or may not have acted on the request.
        case connectionLost = "CONNECTION_LOST"
        /// A file to upload could not be read.
        case fileUnreadable = "FILE_UNREADABLE"
        /// The calling task was cancelled and the transfer stopped.
        case cancelled = "CANCELLED"
        /// The transport itself failed (bad URL, library error).
        case transport = "TRANSPORT"
    }

    /// Why no response arrived.
    public let code: Code
    /// One line for a person, naming the host; never a header, token or query string.
    public let message: String
    /// The URL involved, without credentials, query or fragment.
    public let url: String?

    /// An error with `code`, a one-line `message` and the redacted `url`.
    public init(_ code: Code, _ message: String, url: String? = nil) {
        self.code = code
        self.message = message
        self.url = url
    }

    /// The one-line message.
    public var description: String { message }
}
