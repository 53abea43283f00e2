/// The one error type of Storage: a code, a one-line human message, and the
/// context (the SQL or the path) for logs.
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; stable, for programs and tests.
    public enum Code: String, Sendable {
        /// The store was written by a newer version of the app; it is left untouched.
        case newerStore = "STORE_TOO_NEW"
        /// The file is not a store, or it is damaged.
        case corruptStore = "STORE_CORRUPT"
        /// The disk is full.
        case diskFull = "DISK_FULL"
        /// The file or folder cannot be read or written.
        case permission = "PERMISSION"
        /// Nothing with that id.
        case notFound = "NOT_FOUND"
        /// The change is not allowed in the report's state.
        case notAllowed = "NOT_ALLOWED"
        /// The photo would take its report's photos over their cap (BR-10).
        case photoCapExceeded = "PHOTO_CAP_EXCEEDED"
        /// Another connection held the store locked for longer than the busy timeout; trying again later may work.
        case busy = "BUSY"
        /// Any other SQLite or file-system failure.
        case io = "IO"
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
