import Foundation
import Models
import Networking
import Sync
import Testing
import TestSupport

/// Answers no JQC server should give, from a canned loopback endpoint.
@Suite("Transport and client against hostile or odd answers")
struct HostileServerTests {
    static let grant =
        #"{"ok":true,"data":{"access_token":"tok-A1","refresh_token":"tok-R1","expires_in":900,"#
        + #""user":{"id":"7","username":"ines","role":"inspector","display_name":"Ines"}}}"#
    static let facilities =
        #"{"ok":true,"data":{"facilities":[{"id":"F-1","name":"Depot","address":"","project_name":""}]}}"#

    @Test("an HTML error page is invalidResponse, told in one line with the status and content type")
    func htmlPage() async throws {
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(
                status: 502, contentType: "text/html; charset=utf-8",
                "<html><body><h1>502 Bad Gateway</h1>\n</body></html>")
        ])
        defer { canned.stop() }
        let client = try makeClient(canned.baseURL)
        let error = try #require(
            await apiError { () async throws(APIError) in
                try await client.login(username: "ines", password: "pw")
            })
        #expect(error.code == .invalidResponse)
        #expect(
            error.message
                == "The server at 127.0.0.1:\(canned.port) answered something that is not the JQC API (HTTP 502, text/html)."
        )
        #expect(error.isTransient)
    }

    @Test(
        "truncated JSON and JSON of the wrong shape are invalidResponse",
        arguments: [#"{"ok":true,"data":{"access_tok"#, #"{"ok":true,"data":{"access_token":42}}"#, #"[1,2,3]"#, ""])
    func badJSON(body: String) async throws {
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(status: 200, contentType: "application/json", body)
        ])
        defer { canned.stop() }
        let client = try makeClient(canned.baseURL)
        let error = try #require(
            await apiError { () async throws(APIError) in
                try await client.login(username: "ines", password: "pw")
            })
        #expect(error.code == .invalidResponse)
        #expect(error.message.contains("(HTTP 200, application/json)"))
        #expect(!error.isTransient)
    }

    @Test(
        "a sync answer cut short, of the wrong shape or with a bad id is invalidResponse, told as any other answer",
        arguments: [
            #"{"ok":true,"data":{"results":[{"local_id":"#,
            #"{"ok":true,"data":{"results":[],"min_supported_app_version":"0.1.0","server_schema_version":"1"}}"#,
            #"{"ok":true,"data":{"results":[{"local_id":"nope","status":"ACCEPTED"}],"min_supported_app_version":"0.1.0","server_schema_version":1}}"#,
            #"{"ok":true,"data":{"results":[],"min_supported_app_version":"0.1.0","server_schema_version":1}}x"#,
        ])
    func badSyncAnswer(body: String) async throws {
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(status: 200, contentType: "application/json", body)
        ])
        defer { canned.stop() }
        let user = WireUser(id: "7", username: "ines", role: .inspector, displayName: "Ines")
        let client = try makeClient(
            canned.baseURL, credentials: Credentials(accessToken: "tok-A1", refreshToken: "tok-R1", user: user))
        let error = try #require(
            await apiError { () async throws(APIError) in
                try await client.syncReports(Wire.batch([Wire.lobby()]))
            })
        #expect(error.code == .invalidResponse)
        #expect(
            error.message
                == "The server at 127.0.0.1:\(canned.port) answered something that is not the JQC API (HTTP 200, application/json)."
        )
        #expect(!error.isTransient)
    }

    @Test("every request carries the app version, device id and JSON headers; the bearer token only after login")
    func headers() async throws {
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(status: 200, contentType: "application/json", Self.grant),
            CannedHTTPServer.response(status: 200, contentType: "application/json", Self.facilities),
        ])
        defer { canned.stop() }
        let deviceID = UUID()
        let client = try APIClient(
            configuration: .init(serverURL: canned.baseURL + "/", appVersion: "1.2.3", deviceID: deviceID),
            transport: CurlTransport())
        try await client.login(username: "ines", password: "pw")
        #expect(try await client.facilities().map(\.id) == ["F-1"])

        let requests = canned.requests
        try #require(requests.count == 2)
        #expect(requests[0].hasPrefix("POST /api/v1/auth/login HTTP/1.1"))
        #expect(requests[1].hasPrefix("GET /api/v1/facilities HTTP/1.1"))
        for head in requests {
            let lines = head.lowercased()
            #expect(lines.contains("x-jqc-app-version: 1.2.3"))
            #expect(lines.contains("x-jqc-device-id: \(deviceID.uuidString.lowercased())"))
            #expect(lines.contains("content-type: application/json"))
            #expect(lines.contains("accept-encoding: "))
        }
        #expect(!requests[0].lowercased().contains("authorization"))
        #expect(requests[1].contains("Authorization: Bearer tok-A1"))
    }

    @Test("a short Retry-After is waited out and the request tried once more")
    func retryAfterHonoured() async throws {
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(
                status: 503, contentType: "application/json",
                #"{"ok":false,"error":"busy","code":"UNAVAILABLE"}"#, headers: [("Retry-After", "1")]),
            CannedHTTPServer.response(status: 200, contentType: "application/json", Self.grant),
        ])
        defer { canned.stop() }
        let client = try makeClient(canned.baseURL)
        let credentials = try await client.login(username: "ines", password: "pw")
        #expect(credentials.user.username == "ines")
        #expect(canned.requests.count == 2)
    }

    @Test("a Retry-After longer than the client waits is returned at once, for the caller to schedule")
    func retryAfterTooLong() async throws {
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(
                status: 429, contentType: "text/plain", "slow down", headers: [("Retry-After", "120")])
        ])
        defer { canned.stop() }
        let client = try makeClient(canned.baseURL)
        let error = try #require(
            await apiError { () async throws(APIError) in
                try await client.login(username: "ines", password: "pw")
            })
        #expect(error.code == .rateLimited)
        #expect(error.retryAfter == 120)
        #expect(canned.requests.count == 1)
    }

    @Test(
        "a Retry-After too long for any integer is told and returned, never a crash",
        arguments: ["99999999999999999999", "1e300"])
    func retryAfterHuge(header: String) async throws {
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(
                status: 429, contentType: "application/json",
                #"{"ok":false,"error":"slow down","code":"RATE_LIMITED"}"#,
                headers: [("Retry-After", header)])
        ])
        defer { canned.stop() }
        let client = try makeClient(canned.baseURL)
        let error = try #require(
            await apiError { () async throws(APIError) in
                try await client.login(username: "ines", password: "pw")
            })
        #expect(error.code == .rateLimited)
        #expect(error.retryAfter == Double(header))
        #expect(error.message.hasSuffix("; try again in \(header == "1e300" ? "1e+300" : "1e+20") s."))
    }

    @Test(
        "a 507 STORAGE_FULL is the server's full disk: transient like a 503, with its Retry-After, not waited out, and says so in one line"
    )
    func storageFull() async throws {
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(
                status: 507, contentType: "application/json",
                #"{"ok":false,"error":"the server's disk is full, so nothing of this request was kept","code":"STORAGE_FULL"}"#,
                headers: [("Retry-After", "60")])
        ])
        defer { canned.stop() }
        let client = try makeClient(canned.baseURL)
        let error = try #require(
            await apiError { () async throws(APIError) in
                try await client.login(username: "ines", password: "pw")
            })
        #expect(error.code == .storageFull)
        #expect(error.serverCode == "STORAGE_FULL")
        #expect(error.retryAfter == 60)
        #expect(error.isTransient)
        #expect(error.message.contains("its disk is full (HTTP 507)"))
        #expect(error.message.hasSuffix("nothing on this device was lost; try again in 60 s."))
        #expect(!error.message.contains("\n"))
        #expect(SyncFailure(error).kind == .transient)
        #expect(SyncFailure(error).retryAfter == 60)
        #expect(canned.requests.count == 1, "a minute is not waited out inside one request")
    }

    @Test("a Retry-After that is not ASCII is unreadable, never a crash")
    func retryAfterNotASCII() async throws {
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(
                status: 503, contentType: "application/json",
                #"{"ok":false,"error":"maintenance","code":"UNAVAILABLE"}"#,
                headers: [("Retry-After", "Wed, 21 Oct 2026 07:28:00\u{05B8}")])
        ])
        defer { canned.stop() }
        let client = try makeClient(canned.baseURL)
        let error = try #require(
            await apiError { () async throws(APIError) in
                try await client.login(username: "ines", password: "pw")
            })
        #expect(error.code == .unavailable)
        #expect(error.retryAfter == nil)
        #expect(error.message.hasSuffix("; try again later."))
    }

    @Test("an answer over the size limit is tooLarge, with or without a Content-Length", arguments: [true, false])
    func tooLarge(declared: Bool) async throws {
        let body = Data(repeating: UInt8(ascii: "x"), count: 9 * 1024 * 1024)
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(
                status: 200, headers: [("Content-Type", "application/json")], body: body, contentLength: declared)
        ])
        defer { canned.stop() }
        do {
            _ = try await CurlTransport().send(HTTPRequest(method: .get, url: canned.baseURL + "/big"))
            Issue.record("a 9 MB answer was kept")
        } catch {
            #expect(error.code == .tooLarge)
            #expect(error.message.contains("127.0.0.1:\(canned.port)"))
        }

        let client = try makeClient(canned.baseURL)
        let apiError = try #require(
            await apiError { () async throws(APIError) in
                try await client.login(username: "ines", password: "pw")
            })
        #expect(apiError.code == .invalidResponse)
    }

    @Test(
        "a header whose name or value would break the request's framing is not sent; the others are, an empty one too")
    func headerInjection() async throws {
        let canned = try CannedHTTPServer([CannedHTTPServer.response(status: 200, contentType: "text/plain", "ok")])
        defer { canned.stop() }
        let token = String(repeating: "t0K", count: 150)
        let headers: [(name: String, value: String)] = [
            ("X-Before", "1"), ("X-Split", "a\r\nX-Injected: yes"), ("X-Feed", "b\nX-Injected: yes"),
            ("X-Bad:Name", "v"), ("X-Name\r\nX-Injected", "w"), ("", "nameless"), ("X-Empty", ""),
            ("Authorization", "Bearer " + token),
        ]
        let response = try await CurlTransport().send(
            HTTPRequest(method: .get, url: canned.baseURL + "/x", headers: headers))
        #expect(response.status == 200)
        let head = try #require(canned.requests.first)
        let lines = head.components(separatedBy: "\r\n")
        #expect(lines.contains("X-Before: 1"), "\(head)")
        #expect(lines.contains { $0.hasPrefix("X-Empty:") }, "an empty header is sent, with an empty value: \(head)")
        #expect(lines.contains("Authorization: Bearer \(token)"), "a long value is sent whole")
        #expect(!head.contains("X-Injected") && !head.contains("X-Split") && !head.contains("X-Feed"), "\(head)")
        #expect(!head.contains("X-Bad") && !head.contains("nameless"), "\(head)")
    }

    @Test("a gzip-compressed answer arrives decompressed")
    func compressed() async throws {
        let directory = TemporaryDirectory()
        let plain = directory.path("facilities.json")
        try Data(Self.facilities.utf8).write(to: URL(fileURLWithPath: plain))
        let gzipped: Data = try Tool.run("/bin/gzip", ["-c", plain])
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(
                status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                body: gzipped)
        ])
        defer { canned.stop() }
        let response = try await CurlTransport().send(HTTPRequest(method: .get, url: canned.baseURL + "/x"))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == Self.facilities)
        #expect(canned.requests.first?.lowercased().contains("gzip") == true)
    }

    @Test("cancelling the task stops a transfer that is waiting for a server that never answers")
    func cancellation() async throws {
        // A link that reads the request and never answers: only cancelling can end the wait
        // (or the transport's own time limit, which is not a cancellation), however loaded the machine.
        let silent = try FaultyLink(to: CannedHTTPServer.closedPort())
        silent.set(.blackHole)
        defer { silent.stop() }
        let task = Task { () async -> Result<HTTPResponse, NetworkingError> in
            do throws(NetworkingError) {
                let url = "http://127.0.0.1:\(silent.port)/api/v1/facilities"
                return .success(try await CurlTransport().send(HTTPRequest(method: .get, url: url)))
            } catch {
                return .failure(error)
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        switch await task.value {
        case .success(let response):
            Issue.record("a request nobody answered finished: \(response.status)")
        case .failure(let error):
            #expect(error.code == .cancelled)
        }
    }
}

/// Upload urls a server gives for resumable uploads: only a path under the API of the same server is followed.
@Suite("Upload urls from the server")
struct HostileUploadURLTests {
    static func begin(answering url: String) async throws -> Result<UploadStart, APIError> {
        let answer = #"{"ok":true,"data":{"upload":{"url":"\#(url)","offset":0,"expires_at":"2026-12-03T10:00:00Z"}}}"#
        let canned = try CannedHTTPServer([
            CannedHTTPServer.response(status: 200, contentType: "application/json", HostileServerTests.grant),
            CannedHTTPServer.response(status: 201, contentType: "application/json", answer),
        ])
        defer { canned.stop() }
        let client = try makeClient(canned.baseURL)
        try await client.login(username: "ines", password: "pw")
        let photo = PhotoUpload(
            serverID: "R-1", localID: UUID(), sha256: String(repeating: "ab", count: 32), filePath: "/nonexistent.jpg")
        do throws(APIError) {
            return .success(try await client.beginUpload(photo, byteSize: 10))
        } catch {
            return .failure(error)
        }
    }

    @Test(
        "a url that leaves the API, climbs out of it, or carries a query or a fragment is refused as invalidResponse",
        arguments: [
            "/api/v1/../../etc/passwd", "/api/v1/uploads/..", "/api/v1//uploads/U-1", "/api/v1/uploads/U-1?x=1",
            "/api/v1/uploads/U-1#f", "http://elsewhere.invalid/api/v1/uploads/U-1", "/api/v2/uploads/U-1", "/api/v1",
        ])
    func refused(url: String) async throws {
        guard case .failure(let error) = try await Self.begin(answering: url) else {
            Issue.record("'\(url)' was followed")
            return
        }
        #expect(error.code == .invalidResponse, "\(error.message)")
    }

    @Test("a path under the API of the same server is the upload to continue, dots and dashes in its id included")
    func followed() async throws {
        let result = try await Self.begin(answering: "/api/v1/uploads/U-1.a-b_c/part.2")
        guard case .success(.upload(let session)) = result else {
            Issue.record("not followed: \(result)")
            return
        }
        #expect(session.url == "/api/v1/uploads/U-1.a-b_c/part.2")
        #expect(session.offset == 0)
    }
}

/// Connections kept open from one request to the next.
@Suite("Kept connections")
struct KeptConnectionTests {
    @Test(
        "a kept connection the server closes under an upload's PATCH: its bytes are not sent again by libcurl on a new one, and the request fails as a broken connection, for the device to ask the server how many arrived"
    )
    func closedUnderABody() async throws {
        let directory = TemporaryDirectory()
        let file = directory.path("photo.jpg")
        let bytes = Data((0..<120_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try bytes.write(to: URL(fileURLWithPath: file))
        let canned = try CannedHTTPServer(
            [
                CannedHTTPServer.response(
                    status: 204, headers: [("Upload-Offset", "60000")], body: Data(), saysClose: false),
                CannedHTTPServer.response(status: 204, headers: [("Upload-Offset", "120000")], body: Data()),
            ], hangsUpOnKeptConnections: true)
        defer { canned.stop() }
        let transport = CurlTransport()
        let url = canned.baseURL + "/api/v1/uploads/U-1"
        let first = try await transport.send(
            HTTPRequest(method: .patch, url: url), body: FileRange(path: file, offset: 0, length: 60_000))
        #expect(first.headers["upload-offset"] == "60000")
        let second: Result<HTTPResponse, NetworkingError>
        do throws(NetworkingError) {
            second = .success(
                try await transport.send(
                    HTTPRequest(method: .patch, url: url), body: FileRange(path: file, offset: 60_000, length: 60_000)))
        } catch {
            second = .failure(error)
        }
        // The second request went on the kept connection, which the server closed after reading it: it fails as
        // a broken connection. (On a loaded machine libcurl may leave the kept connection and use a new one at
        // once: then it was answered.) Either way its bytes went once.
        switch second {
        case .failure(let error): #expect(error.code == .connectionLost, "\(error)")
        case .success(let response): #expect(response.headers["upload-offset"] == "120000")
        }
        #expect(canned.bodies == [bytes.prefix(60_000), bytes.suffix(60_000)])
    }
}
