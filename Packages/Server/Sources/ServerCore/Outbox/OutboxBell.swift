import Foundation

/// Wakes the idle senders of one of this instance's outboxes (webhooks,
/// mail) when a change of its own wrote an event, so a delivery starts at
/// once instead of at the next look. Events written by other instances are
/// found at the next look (each outbox's poll).
final class OutboxBell: @unchecked Sendable {
    // `rings` is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var rings: UInt64 = 0

    /// Wakes one waiting sender: enough to fan the new events out, and the
    /// one woken wakes the rest (`ringAll`) once it has made deliveries. Every
    /// change a client makes rings; waking every sender for each would set
    /// them all contending for the database's write lock with the requests
    /// that follow, though most changes make no delivery at all.
    func ring() { ring(everyone: false) }

    /// Wakes every waiting sender: deliveries were made for all to share, or the senders stop.
    func ringAll() { ring(everyone: true) }

    private func ring(everyone: Bool) {
        condition.lock()
        rings &+= 1
        if everyone { condition.broadcast() } else { condition.signal() }
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

/// The bells of this instance's outboxes: a change that wrote an event rings them all.
final class OutboxBells: Sendable {
    let webhooks = OutboxBell()
    let mail = OutboxBell()

    /// Wakes one idle sender of each outbox.
    func ring() {
        webhooks.ring()
        mail.ring()
    }
}
