internal import CSQLite
import Foundation

/// The one error type of the SQLite module: what kind of failure, a one-line
/// message, SQLite's own words, the operating system's error behind an I/O
/// failure, and the context (the SQL or the path) for logs.
///
/// The message speaks of "the database"; a store that has its own words for
/// its users (the device's "store") maps `code` to them.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; stable, for the stores that map it.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written where it leaves the module (logs, `--json`, the wire).
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// The disk is full (`SQLITE_FULL`, or an I/O error whose cause is `ENOSPC`/`EDQUOT`).
        public static let diskFull = Code("DISK_FULL")
        /// The file is not a SQLite database, or it is damaged.
        public static let corrupt = Code("CORRUPT")
        /// The file cannot be opened: a missing folder or a permission, or a
        /// failing device when `systemErrno` says so (`isDeviceFailure`).
        public static let cannotOpen = Code("CANNOT_OPEN")
        /// The file exists but the disk refused to open it for writing.
        public static let notWritable = Code("NOT_WRITABLE")
        /// The file or connection is read-only, or a write is not permitted.
        public static let readOnly = Code("READ_ONLY")
        /// Another connection held the lock for longer than the busy timeout.
        public static let busy = Code("BUSY")
        /// A constraint of the schema refused the change (unique, foreign key, check).
        public static let constraint = Code("CONSTRAINT")
        /// The disk or the operating system failed a read or write.
        public static let io = Code("IO")
        /// The database records a migration this build does not know: a newer program wrote it.
        public static let newerSchema = Code("NEWER_SCHEMA")
        /// A mistake of the calling code: several statements where one was expected, a wrong number of values.
        public static let misuse = Code("MISUSE")
        /// Any other failure SQLite reports.
        public static let other = Code("OTHER")
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do next, for a person.
    public let message: String
    /// SQLite's own message ("database disk image is malformed").
    public let native: String
    /// The operating system's error number behind an I/O failure, or 0.
    public let systemErrno: Int32
    /// The path of the file when the failure was opening it (`cannotOpen`,
    /// `notWritable`, `readOnly` at open), else nil.
    public let openedPath: String?
    /// The SQL statement or path involved, for logs; never shown as the message.
    public let context: String?

    /// Makes an error from its parts.
    public init(
        _ code: Code, _ message: String, native: String = "", systemErrno: Int32 = 0,
        openedPath: String? = nil, context: String? = nil
    ) {
        self.code = code
        self.message = message
        self.native = native
        self.systemErrno = systemErrno
        self.openedPath = openedPath
        self.context = context
    }

    /// The message, so that printing the error shows what a person should read.
    public var description: String { message }

    /// True for the operating system's "no space" errors.
    public static func isDiskFull(errno code: Int32) -> Bool {
        code == ENOSPC || code == EDQUOT
    }

    /// True for an operating-system error that says the device or the call
    /// failed (EIO, EINTR, EAGAIN, ...), as opposed to a missing file, a
    /// permission or a full disk.
    public static func isDeviceFailure(errno code: Int32) -> Bool {
        code != 0 && !isDiskFull(errno: code) && ![EACCES, EPERM, EROFS, ENOENT, ENOTDIR, EISDIR].contains(code)
    }

    /// The system's words for `errno`.
    public static func cause(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The error for a SQLite result code. `systemErrno` is the operating
    /// system's error behind an I/O failure: SQLite reports a full disk met
    /// while growing its shared-memory index or journal as an I/O error, not
    /// as SQLITE_FULL.
    static func sqlite(
        _ resultCode: Int32, _ native: String, systemErrno: Int32 = 0, openedPath: String? = nil,
        context: String?
    ) -> SQLiteError {
        let primary = resultCode & 0xff
        func make(_ code: Code, _ message: String) -> SQLiteError {
            SQLiteError(
                code, message, native: native, systemErrno: systemErrno, openedPath: openedPath, context: context)
        }
        if primary == SQLITE_FULL
            || ((primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN) && isDiskFull(errno: systemErrno))
        {
            return make(.diskFull, "The disk is full; free some space and try again.")
        }
        switch primary {
        case SQLITE_NOTADB, SQLITE_CORRUPT:
            return make(.corrupt, "The database is damaged or is not a SQLite database (\(native)).")
        case SQLITE_CANTOPEN where isDeviceFailure(errno: systemErrno):
            return make(
                .cannotOpen,
                "The database cannot be opened (\(native): \(cause(systemErrno))); check the disk and try again.")
        case SQLITE_CANTOPEN:
            return make(
                .cannotOpen,
                "The database cannot be opened (\(native)); check that its folder exists and that you may write to it.")
        case SQLITE_PERM, SQLITE_READONLY, SQLITE_AUTH:
            return make(
                .readOnly,
                "The database cannot be written (\(native)); check the permissions of the file and its folder.")
        case SQLITE_BUSY, SQLITE_LOCKED:
            return make(.busy, "The database stayed busy in another connection for too long; try again.")
        case SQLITE_CONSTRAINT:
            return make(.constraint, "The change breaks a rule of the database (\(native)); nothing was saved.")
        case SQLITE_IOERR where systemErrno != 0:
            return make(
                .io,
                "The database could not be read or written (\(native): \(cause(systemErrno))); check the disk and try again."
            )
        case SQLITE_IOERR:
            return make(.io, "The database could not be read or written (\(native)); check the disk and try again.")
        default:
            return make(.other, "The database failed (\(native)).")
        }
    }
}
