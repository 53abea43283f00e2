import Foundation
import Models
import Synchronization

/// One HTTP response read off a raw socket.
public struct RawResponse: Sendable {
    public var status: Int
    /// Header values by lowercased name.
    public var headers: [String: String]
    public var body: Data
    /// Every `Set-Cookie` header, in order (a header that may be sent more than once).
    public var setCookies: [String] = []

    /// The body parsed as JSON.
    public var json: JSONValue { (try? JSONDecoder().decode(JSONValue.self, from: body)) ?? .null }
    /// The envelope's `code` on failure.
    public var code: String? { json["code"]?.stringValue }
    /// The envelope's `error` on failure.
    public var error: String { json["error"]?.stringValue ?? "" }
}

/// A TCP connection to a loopback server from a chosen loopback source
/// address (Linux routes all of 127.0.0.0/8 to the loopback interface), for
/// what URLSession cannot do: hold a connection half-open, send a broken
/// request, or look like many different clients.
public final class RawConnection: @unchecked Sendable {
    // One owner at a time: each test uses a connection from one thread.
    public let fd: Int32
    /// How many bytes `send` got onto the socket in all.
    public private(set) var sent = 0

    /// Connects to `127.0.0.1:port` from `source` (any port), or throws.
    public init(port: UInt16, from source: String = "127.0.0.1") throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerLaunchError(message: "socket: errno \(errno)") }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) }
        }
        let connected =
            bound == 0
            && withUnsafePointer(to: &remote) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, size) }
            } == 0
        guard connected else {
            let code = errno
            close(fd)
            throw ServerLaunchError(message: "connect from \(source): errno \(code)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends all of `bytes`; false when the server closed or reset the connection.
    @discardableResult
    public func send(_ bytes: Data) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let written = Glibc.send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { return false }
                offset += written
                sent += written
            }
            return true
        }
    }

    /// Sends `text` as UTF-8.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    /// Whether the server has something to read (a response or the end) within `timeout`.
    public func readable(within timeout: TimeInterval) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32(timeout * 1000)) > 0
    }

    /// Reads one response (its head and `Content-Length` bytes, or up to the
    /// end); nil when none arrived within `timeout`.
    public func readResponse(timeout: TimeInterval) -> RawResponse? {
        let deadline = Date().addingTimeInterval(timeout)
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var headEnd: Int?
        var expected: Int?
        while true {
            if let headEnd, let expected, data.count >= headEnd + expected { break }
            let left = deadline.timeIntervalSinceNow
            guard left > 0, readable(within: left) else { break }
            let count = recv(fd, &chunk, chunk.count, 0)
            if count <= 0 { break }
            data.append(contentsOf: chunk[0..<count])
            if headEnd == nil, let range = data.range(of: Data("\r\n\r\n".utf8)) {
                headEnd = range.upperBound
                let head = String(decoding: data[..<range.lowerBound], as: UTF8.self).lowercased()
                for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                    expected = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
                }
            }
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: data[..<headEnd], as: UTF8.self).split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1."),
            let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        var headers: [String: String] = [:]
        var cookies: [String] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = value
            if name == "set-cookie" { cookies.append(value) }
        }
        var body = Data(data[headEnd...])
        if let expected, body.count > expected { body = body.prefix(expected) }
        return RawResponse(status: status, headers: headers, body: body, setCookies: cookies)
    }

    /// Whether the server closed the connection within `timeout` (reading
    /// meets the end or a reset; anything the server sent first is skipped).
    public func closedByServer(within timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            guard readable(within: max(0, deadline.timeIntervalSinceNow)) else { return false }
            let count = recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
            if count == 0 { return true }
            if count < 0 { return errno != EAGAIN && errno != EWOULDBLOCK }
        }
    }

    /// One request and its response.
    public func exchange(_ request: Data, timeout: TimeInterval = 30) -> RawResponse? {
        send(request) ? readResponse(timeout: timeout) : readResponse(timeout: 1)
    }
}

/// Building raw requests, and sending many at once.
public enum RawHTTP {
    /// The port of a server's base URL (`http://127.0.0.1:PORT`).
    public static func port(of server: ServerProcess) -> UInt16 {
        UInt16(server.baseURL.split(separator: ":").last ?? "") ?? 0
    }

    /// The bytes of one HTTP/1.1 request with `Content-Length`; `headers` are sent as given.
    public static func request(
        _ method: String, _ path: String, token: String? = nil, headers: [(String, String)] = [],
        body: Data? = nil, contentType: String? = "application/json"
    ) -> Data {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-JQC-App-Version: 0.1.0\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let body {
            if let contentType { head += "Content-Type: \(contentType)\r\n" }
            head += "Content-Length: \(body.count)\r\n"
        }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        return Data(head.utf8) + (body ?? Data())
    }

    /// A JSON request.
    public static func json(_ method: String, _ path: String, _ value: JSONValue, token: String? = nil) -> Data {
        request(method, path, token: token, body: (try? JSONEncoder().encode(value)) ?? Data())
    }

    /// Runs `body` for 0..<count, each on its own thread, all at once; the
    /// results in index order. Blocking sockets on threads: the requests
    /// really are concurrent, whatever the machine's core count.
    public static func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        let results = Mutex<[Int: T]>([:])
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                start.wait()
                let value = body(index)
                results.withLock { $0[index] = value }
                group.leave()
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
        for _ in 0..<count { start.signal() }
        group.wait()
        return results.withLock { all in (0..<count).map { all[$0]! } }
    }

    /// A server process's resident memory and its peak, in KiB, from `/proc/PID/status`.
    public static func memory(of pid: Int32) -> (rss: Int, peak: Int) {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            let line = text.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
        return (field("VmRSS"), field("VmHWM"))
    }
}
