internal import CCurl
import Foundation
import Synchronization

/// One request handed to a `TransferLoop`: how to make its transfer (called
/// on the loop's thread, which then owns it) and where its outcome goes.
struct LoopJob: Sendable {
    /// The request's URL, for the message of a job that never starts.
    let url: String
    let cancellation: TransferCancellation
    /// Makes the transfer; runs on the loop's thread.
    let start: @Sendable (TransferCancellation) throws(NetworkingError) -> LoopTransfer
    /// Receives the outcome, once, on the loop's thread.
    let done: @Sendable (Result<HTTPResponse, NetworkingError>) -> Void
}

/// A transfer in a `TransferLoop`: its easy handle, and what turns the
/// handle's outcome into the request's (a streamed file that could not be
/// read, a download's sink that failed). Made, driven and released on the
/// loop's thread only, which is what makes its non-`Sendable` parts safe.
final class LoopTransfer {
    let easy: EasyHandle
    let finish: (Result<HTTPResponse, NetworkingError>) -> Result<HTTPResponse, NetworkingError>

    init(
        _ easy: EasyHandle,
        finish: @escaping (Result<HTTPResponse, NetworkingError>) -> Result<HTTPResponse, NetworkingError> = { $0 }
    ) {
        self.easy = easy
        self.finish = finish
    }
}

/// Every request of one `CurlTransport` driven by one libcurl multi handle
/// on one worker thread: the connections to a server are kept open from one
/// request to the next (no new TCP or TLS handshake, no new thread a
/// request), and requests made at once run at once.
///
/// The thread starts with the first request and ends once the loop has had
/// nothing to do for `linger` seconds, closing the connections it kept. A
/// request is queued under a lock and the thread woken with
/// `curl_multi_wakeup`, the one libcurl call made from other threads.
final class TransferLoop: Sendable {
    private struct State {
        var queued: [LoopJob] = []
        var running = false
        /// The multi handle while the thread runs, to wake it.
        var multi: Waker?
        /// True while the thread sleeps in `curl_multi_poll`, the only time a new request has to wake it.
        var sleeping = false
    }

    /// The multi handle's address, for `curl_multi_wakeup` only, which libcurl
    /// allows from any thread; used under the lock, cleared before the handle goes.
    private struct Waker: @unchecked Sendable {
        let raw: UnsafeMutableRawPointer
        func wake() { curl_multi_wakeup(raw) }
    }

    private let state = Mutex(State())
    private let linger: Double

    /// A loop whose thread ends after `linger` idle seconds.
    init(linger: Double = 5) {
        self.linger = linger
    }

    /// Runs `job`; its `done` is called once with the outcome.
    func submit(_ job: LoopJob) {
        let startThread = state.withLock { state -> Bool in
            state.queued.append(job)
            // An awake thread takes the queue before it next sleeps: no wake-up (a system call) is needed.
            if state.sleeping { state.multi?.wake() }
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if startThread { Thread.detachNewThread { self.run() } }
    }

    /// Wakes the thread, so that a cancelled transfer is seen at once.
    func wake() {
        state.withLock { state in
            state.multi?.wake()
        }
    }

    /// Runs `start` through the loop and waits for its outcome without
    /// blocking the caller's thread; cancelling the task stops the transfer.
    func perform(
        url: String, _ start: @escaping @Sendable (TransferCancellation) throws(NetworkingError) -> LoopTransfer
    ) async -> Result<HTTPResponse, NetworkingError> {
        let cancellation = TransferCancellation()
        if Task.isCancelled { return .failure(Self.cancelled(url)) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<HTTPResponse, NetworkingError>, Never>) in
                submit(
                    LoopJob(url: url, cancellation: cancellation, start: start) { continuation.resume(returning: $0) })
            }
        } onCancel: {
            cancellation.cancel()
            wake()
        }
    }

    // MARK: - The thread

    private func run() {
        guard let multi = MultiHandle() else {
            failEverything()
            return
        }
        let waker = Waker(raw: multi.raw)
        state.withLock { $0.multi = waker }
        var active: [Int: (transfer: LoopTransfer, job: LoopJob)] = [:]
        var nextID = 0
        var idleSince = ContinuousClock.now
        while true {
            let taken = state.withLock { state -> [LoopJob]? in
                let jobs = state.queued
                state.queued = []
                if jobs.isEmpty, active.isEmpty, ContinuousClock.now - idleSince >= .seconds(linger) {
                    state.running = false
                    state.multi = nil
                    return nil
                }
                return jobs
            }
            guard let taken else { return }
            for job in taken {
                guard !job.cancellation.isCancelled else {
                    job.done(.failure(Self.cancelled(job.url)))
                    continue
                }
                do throws(NetworkingError) {
                    let transfer = try job.start(job.cancellation)
                    guard multi.add(transfer.easy, index: nextID) else {
                        job.done(.failure(Self.error(.transport, job.url) { "Could not start the request to \($0)." }))
                        continue
                    }
                    active[nextID] = (transfer, job)
                    nextID += 1
                } catch {
                    job.done(.failure(error))
                }
            }
            guard !active.isEmpty else {
                // Nothing in flight: sleep until a request comes (the wake-up) or the loop has lingered long enough.
                let left = linger - Self.seconds(ContinuousClock.now - idleSince)
                sleep(on: multi, milliseconds: Int32(max(1, min(left, 1) * 1000)))
                continue
            }
            let ended = multi.step()
            for (id, result) in ended {
                guard let entry = active.removeValue(forKey: id) else { continue }
                entry.job.done(entry.transfer.finish(result))
            }
            if active.isEmpty { idleSince = ContinuousClock.now }
            // A transfer that ended may have a request waiting behind it; otherwise sleep until a socket is ready.
            if ended.isEmpty { sleep(on: multi, milliseconds: 200) }
        }
    }

    /// Waits in `curl_multi_poll` unless a request is queued already; a
    /// request queued while it waits wakes it (see `submit`).
    private func sleep(on multi: MultiHandle, milliseconds: Int32) {
        let idle = state.withLock { state -> Bool in
            guard state.queued.isEmpty else { return false }
            state.sleeping = true
            return true
        }
        guard idle else { return }
        multi.wait(milliseconds: milliseconds)
        state.withLock { $0.sleeping = false }
    }

    /// No multi handle could be made: every request queued now fails, and the next one tries again.
    private func failEverything() {
        let jobs = state.withLock { state -> [LoopJob] in
            let jobs = state.queued
            state.queued = []
            state.running = false
            return jobs
        }
        for job in jobs {
            job.done(
                .failure(
                    Self.error(.transport, job.url) {
                        "Could not start a request to \($0): libcurl failed to initialise."
                    }
                ))
        }
    }

    private static func cancelled(_ url: String) -> NetworkingError {
        error(.cancelled, url) { "The request to \($0) was cancelled." }
    }

    /// An error for the request to `url`: `message` given its host, the url without its secrets.
    private static func error(
        _ code: NetworkingError.Code, _ url: String, _ message: (String) -> String
    ) -> NetworkingError {
        let target = RequestTarget(url)
        return NetworkingError(code, message(target.host), url: target.redactedURL)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
