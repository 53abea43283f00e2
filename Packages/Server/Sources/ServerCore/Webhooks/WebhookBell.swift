import Foundation

/// Wakes this instance's idle webhook senders when a change of its own wrote
/// an event, so a delivery starts at once instead of at the next look.
/// Events written by other instances are found at the next look (`--webhook-*` poll).
final class WebhookBell: @unchecked Sendable {
    // `rings` is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var rings: UInt64 = 0

    /// Wakes every waiting sender.
    func ring() {
        condition.lock()
        rings &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// How many times it has rung.
    var count: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return rings
    }

    /// Waits until it rings after `seen` rings, or `timeout` passes; the rings then.
    func wait(after seen: UInt64, timeout: TimeInterval) -> UInt64 {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while rings == seen {
            guard condition.wait(until: deadline) else { break }
        }
        return rings
    }
}
