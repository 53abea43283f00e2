import Foundation
import ProgramOutput
import Synchronization

/// Diagnostic lines on stderr: each starts with an RFC 3339 time and, for a
/// connection, the client's address. At most `burst` lines are written per
/// `interval`; the rest are counted and summed up in one line when the next
/// interval opens, so a flood of broken connections cannot flood the log.
public final class ServerLog: Sendable {
    private struct Window { var start: UInt64 = 0; var written = 0; var suppressed = 0 }
    private let window = Mutex(Window())
    // A line that cannot be written (stderr on a full disk) is dropped, never fatal.
    private let output = LineLog.standardError()
    private let burst: Int
    private let interval: UInt64

    /// A log writing at most `burst` lines every `interval` seconds.
    public init(burst: Int = 20, interval: TimeInterval = 10) {
        self.burst = burst
        self.interval = UInt64(interval * 1_000_000_000)
    }

    /// Writes `message`, about the client at `address` when there is one, unless over the rate.
    public func note(_ message: String, address: String? = nil) {
        let now = DispatchTime.now().uptimeNanoseconds
        var lines: [String] = []
        window.withLock { state in
            if now &- state.start >= interval {
                if state.suppressed > 0 {
                    lines.append(Self.line("\(state.suppressed) more lines like these were not written", address: nil))
                }
                state = Window(start: now, written: 0, suppressed: 0)
            }
            if state.written < burst {
                state.written += 1
                lines.append(Self.line(message, address: address))
            } else {
                state.suppressed += 1
            }
        }
        guard !lines.isEmpty else { return }
        output.append(lines.joined())
    }

    private static func line(_ message: String, address: String?) -> String {
        let text = message.replacingOccurrences(of: "\n", with: " ").prefix(300)
        let from = address.map { $0.isEmpty ? " client ?" : " client \($0)" } ?? ""
        return "\(Date().formatted(.iso8601)) jqc-server:\(from) \(text)\n"
    }
}
