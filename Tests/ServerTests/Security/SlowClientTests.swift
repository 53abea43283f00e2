import Foundation
import Models
import Testing
import TestSupport

/// Connections that hold the server: idle, trickling, unending bodies,
/// aborted in the middle. Each runs its own server, one at a time (they load
/// the machine), against the built binary.
@Suite("Slow and broken connections do not take the server", .serialized)
struct SlowClientTests {
    @Test(
        "with 400 idle or trickling connections held open, another client is answered within 2 s; the deadlines then close them"
    )
    func fourHundredSlowConnections() async throws {
        let server = try ServerProcess(["--demo"])
        let port = RawHTTP.port(of: server)
        let token = try Hostile.token(Hostile.login(server, "inspector", "inspector-pass"))

        // 400 connections from 20 addresses (20 each, under the per-address
        // cap): half send nothing, half send a request line and then one
        // header line a second, never finishing the head.
        var slow: [RawConnection] = []
        for index in 0..<400 {
            let connection = try RawConnection(port: port, from: "127.0.0.\(2 + index % 20)")
            if index % 2 == 1 { connection.send("GET /api/v1/facilities HTTP/1.1\r\nHost: 127.0.0.1\r\n") }
            slow.append(connection)
        }
        let opened = Date()
        func trickle() {
            for connection in slow.enumerated() where connection.offset % 2 == 1 {
                connection.element.send("X-Slow: 1\r\n")
            }
        }

        for _ in 0..<5 {
            trickle()
            let started = Date()
            let response = Hostile.send(server, RawHTTP.request("GET", "/api/v1/facilities", token: token), timeout: 10)
            let elapsed = Date().timeIntervalSince(started)
            #expect(response?.status == 200, "a client was not answered while 400 slow connections were open")
            #expect(elapsed < 2, "answered after \(elapsed) s")
            try await Task.sleep(for: .milliseconds(500))
        }

        // One address cannot take more than its share: 300 more from one
        // address, and the ones past the cap (256) are closed at once.
        let greedy = try (0..<300).map { _ in try RawConnection(port: port, from: "127.0.0.99") }
        try await Task.sleep(for: .milliseconds(500))
        let refused = greedy.filter { $0.closedByServer(within: 0) }.count
        #expect(refused >= 300 - 256, "only \(refused) of 300 connections from one address were refused")

        // Header deadline (10 s): the idle and the trickling ones are closed,
        // though the trickling ones were never silent for long.
        while Date().timeIntervalSince(opened) < 13 {
            trickle()
            try await Task.sleep(for: .seconds(1))
        }
        let closed = slow.filter { $0.closedByServer(within: 2) }.count
        #expect(closed == 400, "\(400 - closed) slow connections were still open 15 s later")
        #expect(Hostile.send(server, RawHTTP.request("GET", "/api/v1/facilities", token: token))?.status == 200)
    }

    @Test("a body trickled a byte at a time is cut off at the body deadline")
    func tricklingBody() async throws {
        let server = try ServerProcess(["--demo", "--body-timeout", "2"])
        let connection = try RawConnection(port: RawHTTP.port(of: server), from: "127.0.0.8")
        connection.send(
            "POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 60\r\n\r\n{")
        let started = Date()
        var cut = false
        // A byte every 400 ms keeps the 30 s idle timeout from ever firing: only
        // the 2 s body deadline can cut this connection. The bound leaves room
        // for a loaded machine; without the deadline it is never cut.
        while Date().timeIntervalSince(started) < 12 && !cut {
            try await Task.sleep(for: .milliseconds(400))
            cut = !connection.send(" ") || connection.closedByServer(within: 0)
        }
        #expect(cut, "a body trickled for 12 s was still being read")
    }

    @Test(
        "a body without end is answered 413 once it passes the limit, and the connection closed",
        arguments: ["/api/v1/reports/sync", "/api/v1/reports/R1/photos"])
    func endlessChunkedBody(_ path: String) async throws {
        let server = try ServerProcess(["--demo", "--max-photo-bytes", "1048576"])
        let token = try Hostile.token(Hostile.login(server, "inspector", "inspector-pass"))
        let connection = try RawConnection(port: RawHTTP.port(of: server))
        let type = path.hasSuffix("photos") ? "multipart/form-data; boundary=xyz" : "application/json"
        connection.send(
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: \(type)\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Data("10000\r\n".utf8) + Data(repeating: UInt8(ascii: "x"), count: 65_536) + Data("\r\n".utf8)
        var response: RawResponse?
        while connection.sent < 24 * 1024 * 1024 {
            if connection.readable(within: 0) { response = connection.readResponse(timeout: 2); break }
            if !connection.send(chunk) { response = connection.readResponse(timeout: 2); break }
        }
        let answer = try #require(response, "no answer after \(connection.sent) bytes of an endless body")
        #expect(answer.status == 413)
        #expect(answer.code == "TOO_LARGE")
        #expect(connection.sent < 12 * 1024 * 1024, "the server read \(connection.sent) bytes before answering")
        #expect(connection.closedByServer(within: 2))
    }

    @Test("a Content-Length of 10 GB is answered 413 at once")
    func hugeDeclaredLength() async throws {
        let server = try Shared.running()
        let token = try Hostile.token(Hostile.login(server, "inspector", "inspector-pass", from: "127.0.0.30"))
        let connection = try RawConnection(port: RawHTTP.port(of: server))
        connection.send(
            "POST /api/v1/reports/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n{")
        let started = Date()
        let response = connection.readResponse(timeout: 5)
        #expect(response?.status == 413)
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(connection.closedByServer(within: 2))
    }

    @Test("aborted connections are logged a few lines at a time, each with the time and the client's address")
    func abortedConnectionsLog() async throws {
        let server = try ServerProcess(["--demo"])
        let port = RawHTTP.port(of: server)
        // 200 requests cut off in the middle of their bodies, by a reset.
        var open: [RawConnection] = []
        for _ in 0..<200 {
            let connection = try RawConnection(port: port, from: "127.0.0.7")
            connection.send(
                "POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"user"
            )
            var linger = linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
            open.append(connection)
        }
        try await Task.sleep(for: .milliseconds(500))
        open.removeAll()
        try await Task.sleep(for: .seconds(2))
        let lines = server.stderr.split(separator: "\n").filter { !$0.hasPrefix("jqc-server: stopping") }
        let aborted = lines.filter { $0.contains("127.0.0.7") }
        #expect(!aborted.isEmpty, "aborted connections left no trace: \(lines.prefix(3))")
        // Notes are at most 20 a window of 10 s; a flood that straddles a window's end may fill two and the
        // line that sums up what the first left out: never more than that, whatever the number of connections.
        #expect(lines.count <= 41, "\(lines.count) lines for 200 aborted connections")
        for line in lines {
            #expect(
                line.range(of: #"^\{"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z","#, options: .regularExpression)
                    != nil,
                "no time: \(line)")
        }
    }
}
