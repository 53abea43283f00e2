import Foundation
import Models

/// The agent's log: one JSON object per line (`ts`, `level`, `event`, and
/// fields) on stderr, or appended to `--log-file`. Tokens and passwords are
/// never passed to it.
public final class AgentLog: @unchecked Sendable {
    // Every write goes through `lock`; the handle is only used under it.
    private let handle: FileHandle
    private let lock = NSLock()
    private let now: @Sendable () -> Date

    /// Severity of a log line.
    public enum Level: String, Sendable { case debug, info, warn, error }

    /// Logs to stderr, or appends to `file` (created 0600 when missing).
    public init(file: String?, now: @escaping @Sendable () -> Date = { Date() }) throws(AppError) {
        self.now = now
        guard let file else {
            handle = FileHandle.standardError
            return
        }
        let fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw AppError.failure("LOG_UNWRITABLE", "Cannot write the log file '\(file)': \(String(cString: strerror(errno))).")
        }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// Writes one line: `{"ts": ..., "level": ..., "event": ..., <fields>}`.
    public func log(_ level: Level, _ event: String, _ fields: [String: JSONValue] = [:]) {
        var object = fields
        object["ts"] = .string(Self.timestamp(now()))
        object["level"] = .string(level.rawValue)
        object["event"] = .string(event)
        let line = JSONValue.object(object).canonicalString() + "\n"
        lock.lock()
        defer { lock.unlock() }
        handle.write(Data(line.utf8))
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
