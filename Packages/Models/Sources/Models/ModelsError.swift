/// The one error type of Models: a machine code and a one-line human message.
public struct ModelsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem this is; stable, for programs and tests.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written where it leaves the module (logs, `--json`, the wire).
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// Text that is not valid JSON.
        public static let invalidJSON = Code("INVALID_JSON")
        /// A field definition a template cannot hold.
        public static let invalidField = Code("INVALID_FIELD")
        /// A form schema with a problem: a repeated id, a missing key, a bad option.
        public static let invalidSchema = Code("INVALID_SCHEMA")
        /// Reference data (a template, a facility, an assignment) that is not what it should be.
        public static let invalidReference = Code("INVALID_REFERENCE")
        /// A report lifecycle change its state does not allow.
        public static let illegalTransition = Code("ILLEGAL_TRANSITION")
    }

    /// The machine code.
    public let code: Code
    /// What went wrong, with the offending value quoted, and what to do next.
    public let message: String

    /// Makes an error from a code and its human message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
