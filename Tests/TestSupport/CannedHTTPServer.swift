import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP endpoint that answers every request with canned bytes,
/// for the answers a real JQC server never gives: HTML error pages, truncated
/// JSON, oversized bodies, gzip. Responses are served in order; the last one
/// repeats. One connection at a time, closed after an answer that says
/// `Connection: close`, kept otherwise until its next request or a new
/// connection comes. With `hangsUpOnKeptConnections`, a request that comes
/// on a kept connection is read and the connection closed without an answer
/// (as a server does that closed an idle connection the client still kept).
/// Call `stop()` when done: the serving thread keeps the server alive until then.
public final class CannedHTTPServer: @unchecked Sendable {
    // `listener` and `port` are immutable; the mutable state is behind Mutexes.
    /// The port it listens on (127.0.0.1).
    public let port: Int
    private let listener: Int32
    private let responses: [Data]
    private let hangsUpOnKeptConnections: Bool
    private let served = Mutex<Int>(0)
    private let heads = Mutex<[String]>([])
    private let received = Mutex<[Data]>([])
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The request heads (request line and headers) received so far, in order.
    public var requests: [String] { heads.withLock { $0 } }

    /// The request bodies received so far, in order.
    public var bodies: [Data] { received.withLock { $0 } }

    /// Starts serving `responses` (raw HTTP responses, see `response(...)`).
    public init(_ responses: [Data], hangsUpOnKeptConnections: Bool = false) throws {
        guard !responses.isEmpty else {
            throw ServerLaunchError(message: "a canned server needs at least one response")
        }
        self.responses = responses
        self.hangsUpOnKeptConnections = hangsUpOnKeptConnections
        let (socket, port) = try Self.listen()
        listener = socket
        self.port = port
        Thread.detachNewThread { [self] in serve() }
    }

    /// Stops listening and waits for the serving thread.
    public func stop() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        finished.wait()
        close(listener)
    }

    /// A raw HTTP/1.1 response with `Connection: close`; without `contentLength`
    /// the body ends when the connection closes. With `saysClose` false it
    /// does not say so, and the client keeps the connection for its next
    /// request, which finds it closed (the server closes it all the same).
    public static func response(
        status: Int, reason: String = "Whatever", headers: [(String, String)] = [],
        body: Data, contentLength: Bool = true, saysClose: Bool = true
    ) -> Data {
        var head = "HTTP/1.1 \(status) \(reason)\r\n" + (saysClose ? "Connection: close\r\n" : "")
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if contentLength { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Data(head.utf8) + body
    }

    /// A response with a text body.
    public static func response(status: Int, contentType: String, _ text: String, headers: [(String, String)] = [])
        -> Data
    {
        response(status: status, headers: [("Content-Type", contentType)] + headers, body: Data(text.utf8))
    }

    /// A loopback port nothing listens on (bound, then released).
    public static func closedPort() throws -> Int {
        let (socket, port) = try listen()
        close(socket)
        return port
    }

    // MARK: - Serving

    private func serve() {
        defer { finished.signal() }
        while !stopping.load(ordering: .relaxed) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            var kept = false
            while (kept ? nextRequestComes(on: connection) : true) && answer(connection, kept: kept) { kept = true }
            close(connection)
        }
    }

    /// Waits on a kept connection until a request comes on it (true), or a
    /// new connection comes, it is closed, or the server stops (false).
    private func nextRequestComes(on connection: Int32) -> Bool {
        while !stopping.load(ordering: .relaxed) {
            var pollers = [
                pollfd(fd: connection, events: Int16(POLLIN), revents: 0),
                pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&pollers, 2, 100) > 0 else { continue }
            return pollers[0].revents != 0
        }
        return false
    }

    /// Answers one request; true when the connection stays open for another.
    private func answer(_ connection: Int32, kept: Bool) -> Bool {
        // Read the whole body first: closing with unread bytes would reset the connection.
        guard let (head, body) = Self.readRequest(connection, timeout: 5) else { return false }
        heads.withLock { $0.append(head) }
        received.withLock { $0.append(body) }
        if kept && hangsUpOnKeptConnections { return false }
        let index = served.withLock { value -> Int in
            defer { value += 1 }
            return min(value, responses.count - 1)
        }
        let response = responses[index]
        let whole = response.withUnsafeBytes { raw -> Bool in
            guard let start = raw.baseAddress else { return false }
            var offset = 0
            while offset < raw.count {
                // MSG_NOSIGNAL: a client that hangs up early must not SIGPIPE the test process.
                let sent = send(connection, start + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
        let headEnd = response.range(of: Data("\r\n\r\n".utf8))?.upperBound ?? response.endIndex
        let answered = String(decoding: response[..<headEnd], as: UTF8.self).lowercased()
        return whole && !answered.contains("\r\nconnection: close\r\n")
    }

    /// One request off a connection: its head (request line and headers) and
    /// the body its Content-Length declares; nil when the connection ends
    /// before the head does.
    static func readRequest(_ connection: Int32, timeout seconds: Int) -> (head: String, body: Data)? {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let separator = Data("\r\n\r\n".utf8)
        while received.range(of: separator) == nil {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[0..<count])
        }
        guard let end = received.range(of: separator) else { return nil }
        let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
        var body = Data(received[end.upperBound...])
        let length = contentLength(head)
        while body.count < length {
            let count = recv(connection, &buffer, min(buffer.count, length - body.count), 0)
            guard count > 0 else { break }
            body.append(contentsOf: buffer[0..<count])
        }
        return (head, body)
    }

    /// The Content-Length a request head declares, 0 without one.
    static func contentLength(_ head: String) -> Int {
        for line in head.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                return Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
            }
        }
        return 0
    }

    /// A socket listening on a free loopback port, and the port.
    static func listen() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerLaunchError(message: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, Glibc.listen(fd, 16) == 0 else {
            close(fd)
            throw ServerLaunchError(message: "could not listen on loopback: errno \(errno)")
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw ServerLaunchError(message: "getsockname() failed: errno \(errno)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
