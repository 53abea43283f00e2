import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// A receiver of webhooks on loopback, as an organisation's endpoint would
/// be: every connection served on a thread of its own, every request kept
/// (headers, exact body, what it was answered), and each answered as
/// `behaviour` says for its position: a status, no answer at all until the
/// sender gives up, or a connection closed without an answer.
public final class WebhookReceiver: @unchecked Sendable {
    /// How one request is answered.
    public enum Behaviour: Sendable, Equatable {
        /// This status after `delay` seconds, with these headers.
        case status(Int, delay: Double = 0, headers: [String] = [])
        /// Nothing for `seconds`, then the connection is closed.
        case silence(seconds: Double)
        /// The connection closed at once, without an answer.
        case close
    }

    /// One request as it arrived.
    public struct Request: Sendable {
        /// Its place in the order requests arrived in (from 0).
        public var arrival: Int
        public var path: String
        /// Header names lowercased.
        public var headers: [String: String]
        public var body: Data
        /// What it was answered: a status, or nil when it got none.
        public var answered: Int?
    }

    // `listener` and `port` are immutable; the rest is behind Mutexes.
    public let port: Int
    private let listener: Int32
    private let behaviour: @Sendable (Int) -> Behaviour
    private let log = Mutex<[Request]>([])
    private let arrivals = Mutex<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// `http://127.0.0.1:PORT/hook`.
    public var url: String { "http://127.0.0.1:\(port)/hook" }

    /// Starts listening; `behaviour` is asked for each request by its arrival number (from 0).
    public init(_ behaviour: @escaping @Sendable (Int) -> Behaviour = { _ in .status(200) }) throws {
        self.behaviour = behaviour
        (listener, port) = try CannedHTTPServer.listen()
        Thread.detachNewThread { [self] in serve() }
    }

    deinit { stop() }

    /// Every request answered (or given up on) so far, in the order they arrived.
    public var requests: [Request] { log.withLock { $0 }.sorted { $0.arrival < $1.arrival } }

    /// Requests that arrived, answered or not yet.
    public var arrived: Int { arrivals.withLock { $0 } }

    /// The requests answered 2xx, in order.
    public var acknowledged: [Request] { requests.filter { ($0.answered ?? 0) / 100 == 2 } }

    /// Waits (a bounded number of looks, up to `seconds`) until `condition` holds of the requests; whether it did.
    public func wait(seconds: Double, until condition: ([Request]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(requests) { return true }
            usleep(50_000)
        }
        return condition(requests)
    }

    /// Stops listening.
    public func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        finished.wait()
        close(listener)
    }

    private func serve() {
        defer { finished.signal() }
        while !stopping.load(ordering: .relaxed) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            Thread.detachNewThread { [self] in
                handle(connection)
                close(connection)
            }
        }
    }

    private func handle(_ connection: Int32) {
        guard let (head, body) = CannedHTTPServer.readRequest(connection, timeout: 10) else { return }
        let lines = head.split(separator: "\r\n").map(String.init)
        let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        let index = arrivals.withLock { count -> Int in
            defer { count += 1 }
            return count
        }
        var request = Request(arrival: index, path: path, headers: headers, body: body, answered: nil)
        switch behaviour(index) {
        case .status(let status, let delay, let extra):
            if delay > 0 { usleep(UInt32(delay * 1_000_000)) }
            var response = "HTTP/1.1 \(status) Whatever\r\nConnection: close\r\nContent-Length: 0\r\n"
            for header in extra { response += header + "\r\n" }
            response += "\r\n"
            let sent = response.utf8CString.withUnsafeBufferPointer { raw in
                send(connection, raw.baseAddress, raw.count - 1, Int32(MSG_NOSIGNAL))
            }
            // An answer the sender no longer read (it gave up, or died) was not received.
            if sent > 0 { request.answered = status }
        case .silence(let seconds):
            usleep(UInt32(seconds * 1_000_000))
        case .close:
            break
        }
        log.withLock { $0.append(request) }
    }
}
