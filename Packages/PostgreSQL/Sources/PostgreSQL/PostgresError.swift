/// The one error type of this module: what went wrong, the SQLSTATE
/// PostgreSQL gave (when it gave one), its one-line message and the SQL or
/// the server it concerned. Never carries a password.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure, for callers that react differently to each.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written where it leaves the module (logs, `--json`, the wire).
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// The server could not be reached, or the connection broke.
        public static let connection = Code("CONNECTION")
        /// The server refused the user or the password.
        public static let authentication = Code("AUTHENTICATION")
        /// The database named in the URL does not exist.
        public static let databaseMissing = Code("DATABASE_MISSING")
        /// A unique constraint refused a row (SQLSTATE 23505).
        public static let uniqueViolation = Code("UNIQUE_VIOLATION")
        /// A SERIALIZABLE transaction lost to a concurrent one (40001): run it again.
        public static let serializationFailure = Code("SERIALIZATION_FAILURE")
        /// Two transactions waited on each other (40P01): run it again.
        public static let deadlock = Code("DEADLOCK")
        /// The server is shutting down, out of connections or short of some other
        /// resource (57P01, 53300, 53000), or a lock
        /// or statement took longer than allowed (55P03, 57014): try later.
        public static let unavailable = Code("UNAVAILABLE")
        /// The database server's disk is full (53100 `disk_full`): nothing was written; try later.
        public static let diskFull = Code("DISK_FULL")
        /// Any other failure of a statement.
        public static let statement = Code("STATEMENT")
        /// The caller asked for something this client cannot send (a NUL in text).
        public static let usage = Code("USAGE")
    }

    /// The kind of failure.
    public let code: Code
    /// PostgreSQL's five-character SQLSTATE, when the server sent one.
    public let sqlState: String?
    /// One line a person can act on.
    public let message: String
    /// The SQL or the (password-free) server address concerned.
    public let context: String?

    /// An error of `code` with its message.
    public init(_ code: Code, _ message: String, sqlState: String? = nil, context: String? = nil) {
        self.code = code
        self.message = message
        self.sqlState = sqlState
        self.context = context
    }

    /// True when running the same transaction again may succeed.
    public var isTransient: Bool {
        [.serializationFailure, .deadlock, .unavailable, .connection].contains(code)
    }

    public var description: String { message }

    /// The code for a SQLSTATE sent by the server.
    static func code(sqlState: String?) -> Code {
        guard let sqlState else { return .statement }
        switch sqlState {
        case "23505": return .uniqueViolation
        case "40001": return .serializationFailure
        case "40P01": return .deadlock
        case "28P01", "28000": return .authentication
        case "3D000": return .databaseMissing
        case "53100": return .diskFull
        case "57P01", "57P02", "57P03", "53000", "53300", "55P03", "57014": return .unavailable
        case _ where sqlState.hasPrefix("08"): return .connection
        default: return .statement
        }
    }
}
