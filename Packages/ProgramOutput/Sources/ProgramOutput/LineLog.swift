import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A log that never stops the program: whole lines appended to a descriptor,
/// one at a time; a line that cannot be written (a full disk, a failing
/// device, a reader gone) is dropped and counted, and the next line is tried
/// afresh, because a log that filled its disk may have room again later.
public final class LineLog: Sendable {
    private struct State {
        var dropped = 0
        var lastFailure: OutputError?
    }

    private let descriptor: Int32
    private let closesDescriptor: Bool
    /// How messages call it: "standard error" or the file's path.
    public let name: String
    private let state = Mutex(State())

    /// A log on standard error.
    public static func standardError() -> LineLog {
        LineLog(descriptor: STDERR_FILENO, name: "standard error", closes: false)
    }

    /// A log appended to `path`, created with mode 0600 when missing.
    public static func appending(to path: String) throws(OutputError) -> LineLog {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw OutputError(errno: errno, target: "'\(path)'", action: "open") }
        return LineLog(descriptor: descriptor, name: "'\(path)'", closes: true)
    }

    private init(descriptor: Int32, name: String, closes: Bool) {
        self.descriptor = descriptor
        self.name = name
        self.closesDescriptor = closes
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    /// Appends `line` (which ends with a line break); false when it was dropped.
    @discardableResult
    public func append(_ line: String) -> Bool {
        state.withLock { state -> Bool in
            do throws(OutputError) {
                try DescriptorWriter.writeAll(descriptor, line, target: name)
                return true
            } catch {
                state.dropped += 1
                state.lastFailure = error
                return false
            }
        }
    }

    /// Lines dropped so far.
    public var droppedLines: Int { state.withLock { $0.dropped } }

    /// Why the last dropped line was dropped.
    public var lastFailure: OutputError? { state.withLock { $0.lastFailure } }
}
