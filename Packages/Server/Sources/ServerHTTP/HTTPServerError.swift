/// The one error type of the HTTP layer: why the server could not start listening.
public struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written where it leaves the module (logs, `--json`, the wire).
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// `--host` is not an IPv4 or IPv6 address.
        public static let badAddress = Code("BAD_ADDRESS")
        /// The address could not be bound (the port in use, say).
        public static let cannotListen = Code("CANNOT_LISTEN")
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, quoting the offending value, and what to do, in one line.
    public let message: String

    /// Makes an error from its code and message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
