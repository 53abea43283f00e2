import Synchronization

/// A flag a cancelled task sets and libcurl's progress callback reads on
/// the transfer's thread, which then aborts the transfer.
final class TransferCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    /// Asks the transfer to stop at its next progress callback.
    func cancel() { flag.store(true, ordering: .relaxed) }

    /// True once `cancel()` ran.
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
