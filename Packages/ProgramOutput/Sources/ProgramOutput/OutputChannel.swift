import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stream the programs write to — standard output, standard error — that
/// never traps and remembers its first failure.
///
/// After a write fails nothing more is written to the channel (a closed pipe
/// or a full disk does not heal mid-command), and the program asks `failure`
/// before it exits to choose its exit code (`ProgramExit`). Writes are
/// unbuffered, so what was written before a crash or a kill is on the stream.
public final class OutputChannel: Sendable {
    /// The process's standard output.
    public static let standardOutput = OutputChannel(descriptor: STDOUT_FILENO, name: "standard output")
    /// The process's standard error.
    public static let standardError = OutputChannel(descriptor: STDERR_FILENO, name: "standard error")

    /// The descriptor written to.
    public let descriptor: Int32
    /// How messages call it.
    public let name: String
    private let firstFailure = Mutex<OutputError?>(nil)

    /// A channel over an open descriptor that the caller keeps open.
    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// The first failure, if a write has failed.
    public var failure: OutputError? { firstFailure.withLock { $0 } }

    /// Writes `text` as it is; returns false when it was not (all) written.
    @discardableResult
    public func write(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes`; returns false when they were not (all) written.
    @discardableResult
    public func write(bytes: UnsafeRawBufferPointer) -> Bool {
        firstFailure.withLock { failure -> Bool in
            guard failure == nil else { return false }
            do throws(OutputError) {
                try DescriptorWriter.writeAll(descriptor, bytes, target: name)
                return true
            } catch {
                failure = error
                return false
            }
        }
    }

    /// Writes `text` and a line break.
    @discardableResult
    public func line(_ text: String) -> Bool {
        write(text + "\n")
    }
}
