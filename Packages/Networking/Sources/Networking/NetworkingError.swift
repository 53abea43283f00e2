/// The one error type of Networking: no usable HTTP response arrived, or a target was refused.
public struct NetworkingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why no response arrived; stable, for programs and tests.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written where it leaves the module (logs, `--json`, the wire).
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// The host could not be reached (DNS, refused, no route).
        public static let unreachable = Code("UNREACHABLE")
        /// The connect or total timeout passed.
        public static let timedOut = Code("TIMED_OUT")
        /// TLS failed, certificate verification included.
        public static let tls = Code("TLS")
        /// The response was larger than the limit.
        public static let tooLarge = Code("TOO_LARGE")
        /// The connection broke after it was made: nothing, or only part, of an answer arrived.
        /// The server may or may not have acted on the request.
        public static let connectionLost = Code("CONNECTION_LOST")
        /// A file to upload could not be read.
        public static let fileUnreadable = Code("FILE_UNREADABLE")
        /// The calling task was cancelled and the transfer stopped.
        public static let cancelled = Code("CANCELLED")
        /// The transport itself failed (bad URL, library error).
        public static let transport = Code("TRANSPORT")
        /// A target or setting refused before any connection was made: a mail relay's
        /// URL that is not `smtp`/`smtps`, or plain text to a relay on another machine.
        public static let refusedTarget = Code("REFUSED_TARGET")
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
