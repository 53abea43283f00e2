/// The one error type of ExternalFieldTypes: a stable code and one line
/// saying which executable failed and how.
public struct ExternalFieldTypesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is; stable, for programs and tests.
    /// A struct rather than an enum so that codes can be added without breaking callers' switches.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written in `--json` output.
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The executable does not exist.
        public static let missing = Code("FIELD_TYPE_MISSING")
        /// The file exists but may not be run.
        public static let notExecutable = Code("FIELD_TYPE_NOT_EXECUTABLE")
        /// The operating system could not start it.
        public static let startFailed = Code("FIELD_TYPE_START_FAILED")
        /// It exited, or closed its output, before answering.
        public static let exited = Code("FIELD_TYPE_EXITED")
        /// It did not answer within the time limit.
        public static let timedOut = Code("FIELD_TYPE_TIMED_OUT")
        /// Its answer was longer than the limit.
        public static let answerTooLong = Code("FIELD_TYPE_ANSWER_TOO_LONG")
        /// Its answer is not the protocol (not JSON, wrong id, missing keys, another version).
        public static let notProtocol = Code("FIELD_TYPE_NOT_PROTOCOL")
        /// It says it is a different field type than its file name.
        public static let wrongName = Code("FIELD_TYPE_WRONG_NAME")
        /// Its file, or a folder on the way to it, is writable by others or owned by someone else: it is not run.
        public static let unsafe = Code("FIELD_TYPE_UNSAFE")
        /// A setting (the time limit) has a value that cannot be used.
        public static let badSetting = Code("FIELD_TYPE_BAD_SETTING")

        /// The raw code.
        public var description: String { rawValue }
    }

    /// The machine code.
    public let code: Code
    /// What went wrong, naming the executable.
    public let message: String

    /// Makes an error from a code and its human message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
