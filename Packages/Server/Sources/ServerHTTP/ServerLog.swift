import Foundation
import ProgramOutput
import Synchronization

/// Diagnostic lines on stderr: each starts with the time (written by the
/// `stamp` the server gives it, RFC 3339 UTC) and, for a connection, the
/// client's address. At most `burst` lines are written per
/// `interval`; the rest are counted and summed up in one line when the next
/// interval opens, so a flood of broken connections cannot flood the log.
public final class ServerLog: Sendable {
    private struct Window { var start: UInt64 = 0; var written = 0; var suppressed = 0 }
    private let window = Mutex(Window())
    // A line that cannot be written (stderr on a full disk) is dropped, never fatal.
    private let output = LineLog.standardError()
    private let burst: Int
    private let interval: UInt64
    /// The text of a moment at the start of each line. Given by the program,
    /// so this module, which knows no product type, writes the product's one format.
    let stamp: @Sendable (Date) -> String

    /// A log writing at most `burst` lines every `interval` seconds, each starting with `stamp` of its time.
    public init(burst: Int = 20, interval: TimeInterval = 10, stamp: @escaping @Sendable (Date) -> String) {
        self.burst = burst
        self.interval = UInt64(interval * 1_000_000_000)
        self.stamp = stamp
    }

    /// Writes `message`, about the client at `address` when there is one, unless over the rate.
    public func note(_ message: String, address: String? = nil) {
        let now = DispatchTime.now().uptimeNanoseconds
        var lines: [String] = []
        window.withLock { state in
            if now &- state.start >= interval {
                if state.suppressed > 0 {
                    lines.append(line("\(state.suppressed) more lines like these were not written", address: nil))
                }
                state = Window(start: now, written: 0, suppressed: 0)
            }
            if state.written < burst {
                state.written += 1
                lines.append(line(message, address: address))
            } else {
                state.suppressed += 1
            }
        }
        guard !lines.isEmpty else { return }
        output.append(lines.joined())
    }

    private func line(_ message: String, address: String?) -> String {
        let text = message.replacingOccurrences(of: "\n", with: " ").prefix(300)
        let from = address.map { $0.isEmpty ? " client ?" : " client \($0)" } ?? ""
        return "\(stamp(Date())) jqc-server:\(from) \(text)\n"
    }
}
