/// The one error type of Storage: a code, a one-line human message, and the
/// context (the SQL or the path) for logs.
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; stable, for programs and tests.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written where it leaves the module (logs, `--json`, the wire).
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// The store was written by a newer version of the app; it is left untouched.
        public static let newerStore = Code("STORE_TOO_NEW")
        /// The file is not a store, or it is damaged.
        public static let corruptStore = Code("STORE_CORRUPT")
        /// The disk is full.
        public static let diskFull = Code("DISK_FULL")
        /// The file or folder cannot be read or written.
        public static let permission = Code("PERMISSION")
        /// Nothing with that id.
        public static let notFound = Code("NOT_FOUND")
        /// The change is not allowed in the report's state.
        public static let notAllowed = Code("NOT_ALLOWED")
        /// The photo would take its report's photos over their cap (BR-10).
        public static let photoCapExceeded = Code("PHOTO_CAP_EXCEEDED")
        /// Another connection held the store locked for longer than the busy timeout; trying again later may work.
        public static let busy = Code("BUSY")
        /// Any other SQLite or file-system failure.
        public static let io = Code("IO")
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do next, for a person.
    public let message: String
    /// The SQL statement or path involved, for logs; never shown as the message.
    public let context: String?

    /// Makes an error from its code, its one-line message and its context.
    public init(_ code: Code, _ message: String, context: String? = nil) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// The message, so that printing the error shows what a person should read.
    public var description: String { message }
}
