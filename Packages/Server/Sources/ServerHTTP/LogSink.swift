import ProgramOutput
import Synchronization

/// Where the server's log lines go: standard error, or a file appended to
/// (`--log-file`, created 0600) that `reopen` opens afresh after logrotate
/// has moved it away (SIGHUP).
///
/// Every line is written at once, whole, under one lock: nothing is queued,
/// so memory stays the same however many requests arrive. A line that
/// cannot be written (a full disk, a closed stderr) is dropped and counted,
/// never fatal.
public final class LogSink: Sendable {
    private struct State {
        var output: LineLog
        /// Lines dropped by the files reopened away.
        var droppedBefore = 0
    }

    private let state: Mutex<State>
    /// The file appended to; nil for standard error.
    public let path: String?

    /// A sink on standard error.
    public static func standardError() -> LogSink { LogSink(output: LineLog.standardError(), path: nil) }

    /// A sink appending to `path`, created with mode 0600 when missing.
    public static func file(_ path: String) throws(OutputError) -> LogSink {
        LogSink(output: try LineLog.appending(to: path), path: path)
    }

    private init(output: LineLog, path: String?) {
        state = Mutex(State(output: output))
        self.path = path
    }

    /// Writes one whole line; false when it was dropped.
    @discardableResult
    public func append(_ line: String) -> Bool {
        // The LineLog is taken out of the lock first, so a write never holds
        // up a reopen (LineLog serialises its own writes).
        let output = state.withLock { $0.output }
        return output.append(line)
    }

    /// Opens the file again by its path, for the file logrotate put in place
    /// of the old one; the old descriptor closes once no write uses it.
    /// Nothing happens on standard error. Throws when the file cannot be
    /// opened, and the old file is kept.
    public func reopen() throws(OutputError) {
        guard let path else { return }
        let fresh = try LineLog.appending(to: path)
        state.withLock { state in
            state.droppedBefore += state.output.droppedLines
            state.output = fresh
        }
    }

    /// Lines that could not be written since the server started.
    public var droppedLines: Int {
        state.withLock { $0.droppedBefore + $0.output.droppedLines }
    }
}
