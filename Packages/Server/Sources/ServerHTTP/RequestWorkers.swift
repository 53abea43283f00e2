import Foundation

/// A fixed set of threads that run request handlers, with a bounded queue.
///
/// libmicrohttpd's event threads must never block (each serves many
/// connections), so a complete request is suspended there and its handler
/// runs here; a full queue is refused at once, and a job that waited in the
/// queue past `maximumWait` is answered by `expired` instead of being run,
/// so an overloaded server says 503 rather than holding a client past its
/// timeout.
final class RequestWorkers: @unchecked Sendable {
    // `queue` is read and written only with `condition` locked.
    private struct Job { let enqueued: UInt64; let run: @Sendable (_ expired: Bool) -> Void }
    private let condition = NSCondition()
    // A taken job's slot is emptied at once, so nothing it captured (a request body) outlives it.
    private var queue: [Job?] = []
    private var head = 0
    private let capacity: Int
    private let maximumWait: UInt64

    /// Starts `count` threads serving a queue of at most `capacity` jobs.
    init(count: Int, capacity: Int, maximumWait: TimeInterval) {
        self.capacity = capacity
        self.maximumWait = UInt64(maximumWait * 1_000_000_000)
        for index in 0..<max(1, count) {
            let thread = Thread { [unowned self] in self.serve() }
            thread.name = "jqc-worker-\(index)"
            thread.stackSize = 8 << 20 // as a default pthread: deeply nested JSON recurses in the decoder
            thread.start()
        }
    }

    /// Queues `job` and returns true, calling `accepted` under the queue's
    /// lock first (so the job cannot start before it); false when the queue is full.
    func submit(accepted: () -> Void, _ job: @escaping @Sendable (_ expired: Bool) -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard queue.count - head < capacity else { return false }
        accepted()
        queue.append(Job(enqueued: DispatchTime.now().uptimeNanoseconds, run: job))
        condition.signal()
        return true
    }

    private func serve() {
        while true {
            condition.lock()
            while head >= queue.count { condition.wait() }
            let job = queue[head]
            queue[head] = nil
            head += 1
            if head > 256 && head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            condition.unlock()
            if let job { job.run(DispatchTime.now().uptimeNanoseconds &- job.enqueued > maximumWait) }
        }
    }
}
