import Foundation
import ProgramOutput
import Synchronization

/// The server's log: one JSON object per line, `{"time", "level", "kind", ...}`,
/// on standard error or in `--log-file` (see `LogSink`), holding the lines
/// at or above its `level`.
///
/// Diagnostic notes (`"kind":"note"`, with a `message` and, for a
/// connection, the `client`) are rate limited: at most `burst` every
/// `interval`; the rest are counted and summed up in one line when the next
/// interval opens, so a flood of broken connections cannot flood the log.
/// Records (`record`, the access log) are not rate limited: each is written
/// at once, so the log keeps up with normal traffic, and memory stays fixed
/// under a flood. The time is written by the `stamp` the server gives it
/// (RFC 3339 UTC), so this module, which knows no product type, writes the
/// product's one format.
public final class ServerLog: Sendable {
    private struct Window { var start: UInt64 = 0; var written = 0; var suppressed = 0 }
    private let window = Mutex(Window())
    /// Where the lines go; shared by the logs made with `sharing`.
    public let sink: LogSink
    /// The least severe level written.
    public let level: LogLevel
    private let burst: Int
    private let interval: UInt64
    let stamp: @Sendable (Date) -> String

    /// A log of the lines at or above `level`, to `sink`, with notes at most
    /// `burst` every `interval` seconds, each line starting with `stamp` of its time.
    public init(
        burst: Int = 20, interval: TimeInterval = 10, level: LogLevel = .info, sink: LogSink = .standardError(),
        stamp: @escaping @Sendable (Date) -> String
    ) {
        self.burst = burst
        self.interval = UInt64(interval * 1_000_000_000)
        self.level = level
        self.sink = sink
        self.stamp = stamp
    }

    /// A log on the same sink and level with a note budget of its own.
    public func sharing(burst: Int, interval: TimeInterval) -> ServerLog {
        ServerLog(burst: burst, interval: interval, level: level, sink: sink, stamp: stamp)
    }

    /// Whether lines of `level` are written.
    public func writes(_ level: LogLevel) -> Bool { level <= self.level }

    /// Writes the note `message` at `level`, about the client at `address`
    /// when there is one, unless over the rate.
    public func note(_ message: String, address: String? = nil, level: LogLevel = .warn) {
        guard writes(level) else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        var lines: [String] = []
        window.withLock { state in
            if now &- state.start >= interval {
                if state.suppressed > 0 {
                    lines.append(
                        noteLine(
                            "\(state.suppressed) more lines like these were not written", address: nil, level: .warn))
                }
                state = Window(start: now, written: 0, suppressed: 0)
            }
            if state.written < burst {
                state.written += 1
                lines.append(noteLine(message, address: address, level: level))
            } else {
                state.suppressed += 1
            }
        }
        guard !lines.isEmpty else { return }
        sink.append(lines.joined())
    }

    /// Writes one line of `kind` at `level` with `fields` after `time`,
    /// `level` and `kind`, at once and never rate limited.
    public func record(_ level: LogLevel, kind: String, _ fields: [(String, LogValue)]) {
        guard writes(level) else { return }
        var line = head(level, kind: kind)
        for (name, value) in fields { line.add(name, value) }
        sink.append(line.line)
    }

    /// Lines that could not be written since the server started.
    public var droppedLines: Int { sink.droppedLines }

    private func head(_ level: LogLevel, kind: String) -> LogLine {
        var line = LogLine()
        line.add("time", .string(stamp(Date())))
        line.add("level", .string(level.name))
        line.add("kind", .string(kind))
        return line
    }

    private func noteLine(_ message: String, address: String?, level: LogLevel) -> String {
        var line = head(level, kind: "note")
        line.add("message", .string(String(message.prefix(300))))
        if let address { line.add("client", address.isEmpty ? .null : .string(address)) }
        return line.line
    }
}
