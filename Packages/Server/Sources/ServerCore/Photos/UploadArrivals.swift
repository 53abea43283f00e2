import Foundation

/// The `PATCH` bodies of resumable uploads arriving at this instance, each
/// numbered when its head is accepted. A request for an upload waits until
/// the bodies that began before it for the same upload are kept or refused:
/// a `HEAD` asked just after a connection broke then answers what the
/// broken `PATCH` left, not the offset before it, and two `PATCH`es are
/// judged in the order they came. Waits are bounded: past `patience` the
/// request goes on with what the store holds.
final class UploadArrivals: @unchecked Sendable {
    // `next` and `open` are read and written only with `condition` locked.
    private let condition = NSCondition()
    private var next: UInt64 = 1
    private var open: [UInt64: String] = [:]
    private let patience: TimeInterval

    init(patience: TimeInterval = 10) {
        self.patience = patience
    }

    /// Numbers a body for `uploadID` that is about to arrive.
    func begin(_ uploadID: String) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        let ticket = next
        next += 1
        open[ticket] = uploadID
        return ticket
    }

    /// The body numbered `ticket` was kept or refused (0: none).
    func end(_ ticket: UInt64) {
        guard ticket != 0 else { return }
        condition.lock()
        open[ticket] = nil
        condition.broadcast()
        condition.unlock()
    }

    /// Waits while a body for `uploadID` numbered below `ticket` (nil: any
    /// begun so far) is still arriving or being kept.
    func awaitEarlier(_ uploadID: String, than ticket: UInt64? = nil) {
        let deadline = Date().addingTimeInterval(patience)
        condition.lock()
        defer { condition.unlock() }
        let limit = ticket ?? next
        while open.contains(where: { $0.key < limit && $0.value == uploadID }) {
            guard condition.wait(until: deadline) else { return }
        }
    }
}
