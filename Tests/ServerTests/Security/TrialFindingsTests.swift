import Foundation
import Models
import Testing
import TestSupport

/// The smaller findings of a security trial, each through the real server
/// (both stores: the server suite runs again on PostgreSQL).
@Suite("Security trial: ids with control characters, long refusals, others' assignments, loose tokens")
struct TrialFindingsTests {
    @Test(
        "a NUL or another control character in an id rejects that report alone, on either store; in a user name it is 400, not a failure"
    )
    func controlCharactersInIds() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        for field in ["facility_id", "area_id", "assignment_id", "parent_server_id", "template_id"] {
            let bad = Reports.lobby().setting(field, .string("F-1\u{0}00"))
            let good = Reports.lobby()
            let response = try await me.sync([bad, good])
            #expect(response.status == 200, "\(field): \(response.status) \(response.message)")
            let results = response.data["results"]?.arrayValue ?? []
            #expect(results.first?["status"] == "REJECTED", "\(field)")
            #expect(
                results.first?["error"]?.stringValue?.contains("'\(field)' holds a control character") == true,
                "\(results)")
            #expect(results.last?["status"] == "ACCEPTED", "the other report of the batch is accepted")
        }
        let login = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"),
            json: ["username": "inspec\u{0}tor", "password": "inspector-pass"])
        #expect(login.status == 400)
        #expect(login.message.contains("control character"))
    }

    @Test("a report with 100,000 unknown answers is refused in a line that names ten and counts the rest")
    func manyUnknownAnswers() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        var answers: [String: JSONValue] = [:]
        for index in 0..<100_000 { answers["x\(index)"] = .integer(Int64(index)) }
        let report = Reports.lobby(answers: answers)
        let response = try await me.sync([report])
        #expect(response.status == 200)
        #expect(response.body.count < 10_000, "the answer is \(response.body.count) bytes")
        let error = response.data["results"]?.arrayValue?.first?["error"]?.stringValue ?? ""
        #expect(error.contains("and 99990 more"), "\(error.prefix(300))")
    }

    @Test("a report may name only the caller's own assignment (a supervisor any)")
    func othersAssignment() async throws {
        let server = try Shared.running()
        let stranger = try await Session.other(server)
        let theirs = try await stranger.syncOne(Reports.lobby().setting("assignment_id", "AS-1"))
        #expect(theirs["status"] == "REJECTED")
        #expect(theirs["error"]?.stringValue?.contains("not an assignment of yours") == true)
        let made = try await stranger.syncOne(Reports.lobby().setting("assignment_id", "AS-NOWHERE"))
        #expect(made["status"] == "REJECTED", "an assignment that does not exist is refused alike")
        let me = try await Session.inspector(server)
        let open = try await me.get("/assignments")
        #expect(
            open.data["assignments"]?.arrayValue?.contains { $0["id"] == "AS-1" } == true,
            "AS-1 is still the inspector's, open")
    }

    @Test("a token is read in its one spelling: another last character with the same bits is refused")
    func strictTokens() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        #expect(try await me.get("/auth/me").status == 200)
        // The signature is 32 bytes: 43 base64url characters, the last carrying 4 bits and 2 unused ones.
        let signature = try #require(me.accessToken.split(separator: ".").last)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try #require(signature.last.flatMap { alphabet.firstIndex(of: $0) })
        let twin = alphabet[last ^ 1]
        let loose = String(me.accessToken.dropLast()) + String(twin)
        let response = try await HTTPTestClient().send("GET", server.url("/auth/me"), token: loose)
        #expect(response.status == 401)
    }

    @Test(
        "a request target longer than the server takes is its own 414 with nosniff; past libmicrohttpd's buffer, its fixed answer echoes nothing of the request"
    )
    func longTargets() async throws {
        let server = try Shared.running()
        let marker = "<script>alert(1)</script>"
        let long = try await HTTPTestClient().send(
            "GET", server.url("/facilities?q=" + String(repeating: "a", count: 9_000) + marker))
        #expect(long.status == 414)
        #expect(long.code == "URI_TOO_LONG")
        #expect(long.header("X-Content-Type-Options") == "nosniff")
        #expect(!String(decoding: long.body, as: UTF8.self).contains("<script>"))

        let connection = try RawConnection(port: RawHTTP.port(of: server))
        let huge =
            "GET /api/v1/facilities?q=" + String(repeating: "b", count: 70_000) + marker
            + " HTTP/1.1\r\nHost: x\r\n\r\n"
        _ = connection.send(huge)
        let answer = try #require(connection.readResponse(timeout: 30))
        #expect(answer.status == 414 || answer.status == 431, "\(answer.status)")
        #expect(
            !String(decoding: answer.body, as: UTF8.self).contains("script"),
            "libmicrohttpd's own text holds nothing sent")
    }
}
