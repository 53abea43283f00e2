import Foundation
import Models
import Testing
import TestSupport

/// Reports and requests built to mislead the server: links to other
/// people's reports, loose fields, duplicate keys, broken framing.
@Suite("Reports and requests are checked field by field")
struct HostileReportTests {
    @Test(
        "a re-inspection may link only the caller's own report (a supervisor any); the flag follows the current revision"
    )
    func reinspectionLinks() async throws {
        let server = try Shared.running()
        let owner = try await Session.inspector(server)
        let stranger = try await Session.other(server)
        let supervisor = try await Session.supervisor(server)
        let parent = try #require(try await owner.syncOne(Reports.lobby(followUp: true))["server_id"]?.stringValue)
        func flag() async throws -> Bool? {
            try await owner.get("/reports/\(parent)").data["report"]?["payload"]?["follow_up_required"]?.boolValue
        }

        let foreign = try await stranger.syncOne(Reports.lobby(parentServerID: parent))
        #expect(foreign["status"] == "REJECTED")
        #expect(foreign["error_code"] == "FORBIDDEN")
        #expect(try await flag() == true, "another inspector's re-inspection cleared the follow-up")

        let missing = try await owner.syncOne(Reports.lobby(parentServerID: "R-does-not-exist"))
        #expect(missing["status"] == "REJECTED")
        #expect(missing["error_code"] == "REPORT_INVALID")
        #expect(missing["error"]?.stringValue?.contains("parent_server_id") == true)

        let linked = try await supervisor.syncOne(Reports.lobby(parentServerID: parent))
        #expect(linked["status"] == "ACCEPTED")
        #expect(try await flag() == false)

        let parentText = try await owner.get("/reports/\(parent)").data["report"]?["local_id"]?.stringValue ?? ""
        let parentLocalID = try #require(UUID(uuidString: parentText))
        let raised = try await owner.syncOne(
            Reports.lobby(
                localID: parentLocalID, serverID: parent, baseRevision: 1,
                answers: ["notes": "worse again"], followUp: true))
        #expect(raised["status"] == "ACCEPTED")
        #expect(try await flag() == true, "a later revision that sets the flag did not raise it again")
    }

    @Test(
        "loose report fields are REJECTED naming the field",
        arguments: [
            ("completed_at_device", JSONValue.string(String(repeating: "garbage ", count: 12_800))),
            ("completed_at_device", JSONValue.string("yesterday")),
            ("base_revision", JSONValue.integer(-5)),
            ("base_revision", JSONValue.integer(2)),
        ])
    func looseFields(_ field: String, _ value: JSONValue) async throws {
        let me = try await Session.inspector(try Shared.running())
        let result = try await me.syncOne(Reports.lobby().setting(field, value))
        #expect(result["status"] == "REJECTED")
        #expect(result["error_code"] == "REPORT_INVALID")
        #expect(result["error"]?.stringValue?.contains(field) == true, "\(result)")
    }

    @Test("a well-formed completed_at_device is accepted")
    func goodTimestamp() async throws {
        let me = try await Session.inspector(try Shared.running())
        let result = try await me.syncOne(
            Reports.lobby().setting("completed_at_device", "2026-03-01T09:30:00.125+02:00"))
        #expect(result["status"] == "ACCEPTED")
    }

    @Test("a key repeated in one object is 400 naming the key")
    func duplicateKeys() async throws {
        let server = try Shared.running()
        let body = Data(#"{"username":"inspector","username":"x","password":"inspector-pass"}"#.utf8)
        let response = Hostile.send(
            server, RawHTTP.request("POST", "/api/v1/auth/login", body: body), from: "127.0.4.1")
        #expect(response?.status == 400)
        #expect(response?.error.contains("'username'") == true)
        let escaped = Data(#"{"username":"inspector","password":"inspector-pass","\u0070assword":"x"}"#.utf8)
        #expect(
            Hostile.send(server, RawHTTP.request("POST", "/api/v1/auth/login", body: escaped), from: "127.0.4.1")?
                .status == 400)
    }

    @Test(
        "a JSON route sent without Content-Type: application/json is 415",
        arguments: [nil, "text/plain", "application/x-www-form-urlencoded"])
    func contentType(_ type: String?) async throws {
        let server = try Shared.running()
        let body = Data(#"{"username":"inspector","password":"inspector-pass"}"#.utf8)
        let response = Hostile.send(
            server, RawHTTP.request("POST", "/api/v1/auth/login", body: body, contentType: type),
            from: "127.0.4.2")
        #expect(response?.status == 415)
        #expect(response?.code == "UNSUPPORTED_MEDIA_TYPE")
    }

    @Test("two different Content-Length headers are 400")
    func conflictingLengths() async throws {
        let server = try Shared.running()
        let body = #"{"username":"inspector","password":"inspector-pass"}"#
        let request =
            "POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nContent-Length: 5\r\nConnection: close\r\n\r\n" + body
        let response = Hostile.send(server, Data(request.utf8), from: "127.0.4.3")
        #expect(response?.status == 400)
    }

    @Test(
        "%00 in a path is 400, not a truncated path", arguments: ["/api/v1/facilities%00/x", "/api/v1/reports/R1%00"])
    func nulInPath(_ path: String) async throws {
        let server = try Shared.running()
        let me = try await Session.supervisor(server)
        let response = Hostile.send(server, RawHTTP.request("GET", path, token: me.accessToken))
        #expect(response?.status == 400)
        #expect(response?.error.contains("%00") == true)
    }

    @Test("every response says nosniff; photos come back as image/jpeg only")
    func noSniff() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let serverID = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        let photo = PhotoContractTests.jpeg(2_000)
        let localID = UUID().uuidString.lowercased()
        let upload = try await me.client.upload(
            server.url("/reports/\(serverID)/photos"),
            fields: [("local_id", localID), ("sha256", try PhotoContractTests.sha256(photo))],
            file: photo, token: me.accessToken)
        #expect(upload.status == 201)
        let download = try await me.get("/reports/\(serverID)/photos/\(localID)")
        #expect(download.header("Content-Type") == "image/jpeg")
        let responses: [(String, String?)] = [
            ("/facilities", me.accessToken), ("/facilities", nil), ("/no/such/route", me.accessToken),
            ("/reports/\(serverID)/photos/\(localID)", me.accessToken),
        ]
        for (path, token) in responses {
            let response = try await HTTPTestClient().send("GET", server.url(path), token: token)
            #expect(response.header("X-Content-Type-Options") == "nosniff", "\(path): \(response.status)")
        }
        #expect(upload.header("X-Content-Type-Options") == "nosniff")
    }

    @Test("new server ids are random, not a sequence")
    func randomServerIDs() async throws {
        let me = try await Session.inspector(try Shared.running())
        let first = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        let second = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        for id in [first, second] {
            #expect(id.range(of: "^R-[0-9a-f]{24}$", options: .regularExpression) != nil, "\(id)")
        }
        #expect(first != second)
    }
}

@Suite("Limits on what one report and one upload may hold")
struct ReportLimitTests {
    @Test(
        "a report takes at most --max-revisions revisions, the last kept for the server: a device is REJECTED before, a supervisor corrects, then a PATCH is 422"
    )
    func revisionCap() async throws {
        let server = try ServerProcess(["--demo", "--max-revisions", "4"])
        let me = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        let localID = UUID()
        let serverID = try #require(try await me.syncOne(Reports.lobby(localID: localID))["server_id"]?.stringValue)
        for revision in 1...2 {
            let amended = try await me.syncOne(
                Reports.lobby(
                    localID: localID, serverID: serverID, baseRevision: revision,
                    answers: ["notes": .string("take \(revision)")]))
            #expect(amended["status"] == "ACCEPTED")
        }
        let beyond = try await me.syncOne(
            Reports.lobby(
                localID: localID, serverID: serverID, baseRevision: 3,
                answers: ["notes": "one too many"]))
        #expect(beyond["status"] == "REJECTED")
        #expect(beyond["error"]?.stringValue?.contains("revisions") == true)
        // The last revision is the server's: a supervisor can still correct the report an inspector filled.
        let correction = try await supervisor.patch(
            "/reports/\(serverID)",
            [
                "base_revision": 3,
                "payload": ["answers": ["entrance": "pass", "glass": 2], "follow_up_required": false],
            ])
        #expect(correction.status == 200, "\(correction.message)")
        let patch = try await supervisor.patch(
            "/reports/\(serverID)",
            [
                "base_revision": 4,
                "payload": ["answers": ["entrance": "pass", "glass": 3], "follow_up_required": false],
            ])
        #expect(patch.status == 422)
        #expect(try await me.get("/reports/\(serverID)").data["report"]?["revision"] == 4)
    }

    @Test("a photo upload without a token is refused before its body is read, and nothing is written to disk")
    func uploadWithoutToken() async throws {
        let server = try Shared.running()
        let connection = try RawConnection(port: RawHTTP.port(of: server), from: "127.0.4.4")
        connection.send(
            "POST /api/v1/reports/R1/photos HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 20000000\r\n\r\n")
        let response = connection.readResponse(timeout: 3)
        #expect(response?.status == 401, "no 401 before the body was sent")
        let incoming = server.uploadDirectory
        let left = (try? FileManager.default.contentsOfDirectory(atPath: incoming)) ?? []
        #expect(left.count <= 2, "\(left.count) uploads in progress on an idle server")
    }

    @Test("a multipart body of many parts is refused, however small each part")
    func manyParts() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let serverID = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        let photo = PhotoContractTests.jpeg(1_000)
        var fields = [("local_id", UUID().uuidString.lowercased()), ("sha256", try PhotoContractTests.sha256(photo))]
        for index in 0..<30 { fields.append(("junk\(index)", String(repeating: "j", count: 1000))) }
        let response = try await me.client.upload(
            server.url("/reports/\(serverID)/photos"), fields: fields, file: photo,
            token: me.accessToken)
        #expect(response.status == 400)
        #expect(response.json["error"]?.stringValue?.contains("parts") == true)
    }
}
