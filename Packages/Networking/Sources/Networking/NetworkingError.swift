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
        /// The transport itself failed (bad URL, library error).
        case transport = "TRANSPORT"
    }

    public let code: Code
    /// One line for a person.
    public let message: String
    /// The URL involved, without credentials.
    public let url: String?

    public init(_ code: Code, _ message: String, url: String? = nil) {
        self.code = code
        self.message = message
        self.url = url
    }

    public var description: String { message }
}
