#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why bytes meant for a stream or a file did not get there: the one error
/// type of this module, with a code a program can branch on, the native
/// `errno` and a message a person can act on.
public struct OutputError: Error, Sendable, Equatable {
    /// What kind of failure it was.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code as written where it leaves the module (logs, `--json`, the wire).
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw code.
        public var description: String { rawValue }

        /// The reader went away (`EPIPE`): nobody wants the rest.
        public static let closed = Code("closed")
        /// The disk or quota is full (`ENOSPC`, `EDQUOT`).
        public static let full = Code("full")
        /// Every other failure of the device or the descriptor (`EIO`, `EBADF`, ...),
        /// including transient ones that did not clear within the retry bound.
        public static let failed = Code("failed")
    }

    /// The kind of failure.
    public let code: Code
    /// The `errno` the system reported.
    public let errno: Int32
    /// What was being written, as a person calls it: "standard output", a path.
    public let target: String
    /// What was being done: "write", "flush", "save", ...
    public let action: String

    /// An error for `errno` while doing `action` on `target`.
    public init(errno: Int32, target: String, action: String = "write") {
        self.errno = errno
        self.target = target
        self.action = action
        switch errno {
        case EPIPE: code = .closed
        case ENOSPC, EDQUOT: code = .full
        default: code = .failed
        }
    }

    /// The system's words for `errno`.
    public var reason: String { String(cString: strerror(errno)) }

    /// One line: what failed, why, and what to do.
    public var message: String {
        switch code {
        case .closed: return "The reader of \(target) closed it before the end."
        case .full: return "Cannot \(action) \(target): the disk is full (\(reason)); free some space and try again."
        default: return "Cannot \(action) \(target) (\(reason)); check the disk and its permissions, then try again."
        }
    }
}
