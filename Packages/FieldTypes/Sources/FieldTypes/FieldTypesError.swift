/// The one error type of FieldTypes: a stable machine code and a one-line message.
public struct FieldTypesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is; stable, for programs and tests.
    /// A struct rather than an enum so that codes can be added without breaking callers' switches.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written in `--json` error output.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// Two types were registered under one name.
        public static let duplicateFieldType = Code("DUPLICATE_FIELD_TYPE")
        /// A name was asked for that no registered type has.
        public static let unknownFieldType = Code("UNKNOWN_FIELD_TYPE")
        /// A type's name is not lowercase letters, digits and underscores.
        public static let invalidFieldTypeName = Code("INVALID_FIELD_TYPE_NAME")

        /// The raw code.
        public var description: String { rawValue }
    }

    /// The machine code.
    public let code: Code
    /// What went wrong, with the offending name quoted.
    public let message: String

    /// Makes an error from a code and its human message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
