import Foundation
import JQCCore
import Models
import ProgramOutput

/// The agent's log: one JSON object per line (`ts`, `level`, `event`, and
/// fields) on stderr, or appended to `--log-file`. Tokens and passwords are
/// never passed to it.
///
/// A line that cannot be written (a full disk, a failing device, a closed
/// stderr) is dropped and counted, never fatal: an unattended agent keeps
/// syncing when its log cannot take more, and `droppedLines` reaches the
/// metrics file, where an operator sees it.
public final class AgentLog: Sendable {
    private let output: LineLog
    private let now: @Sendable () -> Date

    /// Severity of a log line.
    public enum Level: String, Sendable { case debug, info, warn, error }

    /// Logs to stderr, or appends to `file` (created 0600 when missing, with
    /// its folder 0700: a cron line naming `~/.local/state/...` works on a fresh machine).
    public init(file: String?, now: @escaping @Sendable () -> Date = { Date() }) throws(AppError) {
        self.now = now
        guard let file else {
            output = LineLog.standardError()
            return
        }
        let folder = (file as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw AppError.failure(
                    .logUnwritable, "Cannot create the folder of the log file '\(file)': \(Self.reason(error)).")
            }
        }
        do throws(OutputError) {
            output = try LineLog.appending(to: file)
        } catch {
            throw AppError.failure(.logUnwritable, "Cannot write the log file '\(file)': \(error.reason).")
        }
    }

    /// Writes one line: `{"ts": ..., "level": ..., "event": ..., <fields>}`.
    public func log(_ level: Level, _ event: String, _ fields: [String: JSONValue] = [:]) {
        var object = fields
        object["ts"] = .string(Self.timestamp(now()))
        object["level"] = .string(level.rawValue)
        object["event"] = .string(event)
        output.append(JSONValue.object(object).canonicalString() + "\n")
    }

    /// Lines that could not be written since the agent started.
    public var droppedLines: Int { output.droppedLines }

    private static func reason(_ error: any Error) -> String {
        ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map {
            String(cString: strerror(Int32($0.code)))
        }
            ?? "permission denied or not a folder"
    }

    static func timestamp(_ date: Date) -> String {
        RFC3339.string(date, milliseconds: true)
    }
}
