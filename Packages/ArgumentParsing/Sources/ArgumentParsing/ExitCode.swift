/// A program's exit status, named: the table of docs/commands.md. An integer
/// literal is one too (`exitCode: 73`), so a status read from a process or a
/// test compares with a name (`status == ExitCode.usage.rawValue`).
public struct ExitCode: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }
    public init(integerLiteral value: Int32) { self.rawValue = value }

    public var description: String { String(rawValue) }

    /// Done.
    public static let ok: ExitCode = 0
    /// Failed; the message says why (also a full disk).
    public static let failure: ExitCode = 1
    /// A command line the program cannot act on: unknown command or option, missing or bad value.
    public static let usage: ExitCode = 2
    /// Something named does not exist.
    public static let notFound: ExitCode = 3
    /// Input that fails validation.
    public static let validation: ExitCode = 4
    /// Refused by a rule: a state, a cap, a floor, a version gate.
    public static let blocked: ExitCode = 5
    /// Sign-in required.
    public static let authRequired: ExitCode = 6
    /// A conflict needs a person.
    public static let conflict: ExitCode = 7
    /// Another process holds the lock (another agent syncs the profile).
    public static let lockHeld: ExitCode = 73
    /// A temporary failure, offline or a server unavailable: try later.
    public static let temporary: ExitCode = 75
    /// The reader closed the output before all of it was written (128 + SIGPIPE, as a shell reports it).
    public static let readerClosed: ExitCode = 141
}
