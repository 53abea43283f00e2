import Foundation
import Models
import Testing
import TestSupport

@Suite("Hostile input gets a 4xx envelope, never a crash or a 500")
struct HostileInputTests {
    @Test(
        "bodies that are not the JSON asked for are 400 BAD_REQUEST",
        arguments: [
            #"{"username": "inspector", "password": "#,
            #"not json at all"#,
            #"[1, 2, 3]"#,
            #"{"username": 42, "password": true}"#,
            #"{"username": null}"#,
            "",
        ])
    func badLoginBodies(_ body: String) async throws {
        let server = try Shared.running()
        let response = try await HTTPTestClient().send("POST", server.url("/auth/login"), body: Data(body.utf8))
        #expect(response.status == 400)
        #expect(response.code == "BAD_REQUEST")
        #expect(response.json["ok"] == false)
    }

    @Test(
        "sync bodies of the wrong shape are 400",
        arguments: [
            #"{"device_id": "x", "app_version": "0.1.0", "schema_version": 1, "reports": {"a": 1}}"#,
            #"{"reports": [{"local_id": 5}]}"#,
            #"{"reports": [{"local_id": "' OR 1=1 --"}]}"#,
            #"{"device_id": "x", "reports": [{"local_id": "6a1b0f52-4a4e-4c39-9c1f-0d3c7a7f0b12""#,
            #"{"schema_version": "one", "reports": []}"#,
        ])
    func badSyncBodies(_ body: String) async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let response = try await me.client.send(
            "POST", server.url("/reports/sync"), body: Data(body.utf8), token: me.accessToken)
        #expect(response.status == 400)
        #expect(response.code == "BAD_REQUEST")
    }

    @Test("a body over 2 MB is 413 TOO_LARGE")
    func hugeBody() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        // The head announces 3 MB; the server answers from the head alone, before
        // the body is sent (a client still writing a body the server has refused
        // may meet a reset instead of the answer, so the body is not sent here).
        let connection = try RawConnection(port: RawHTTP.port(of: server))
        #expect(
            connection.send(
                "POST /api/v1/reports/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Authorization: Bearer \(me.accessToken)\r\nContent-Length: \(3 * 1024 * 1024)\r\n\r\n{\"reports\": [\""
            ))
        let response = connection.readResponse(timeout: 10)
        #expect(response?.status == 413)
        #expect(response?.code == "TOO_LARGE")
        #expect(try await me.get("/auth/me").status == 200)
    }

    @Test(
        "path traversal and SQL metacharacters in ids find nothing",
        arguments: [
            "/reports/..%2F..%2F..%2Fetc%2Fpasswd",
            "/reports/R1'%20OR%20'1'='1",
            "/reports/R1%3B%20DROP%20TABLE%20reports%3B--",
            "/facilities/F-100'--/areas",
            "/facilities/%2E%2E/areas",
            "/reports/R1/photos/..%2F..%2Fserver.db",
        ])
    func hostileIDs(_ path: String) async throws {
        let server = try Shared.running()
        let me = try await Session.supervisor(server)
        let response = try await me.get(path)
        #expect(response.status == 404)
        #expect(response.json["ok"] == false)
        #expect(try await me.get("/facilities").data["facilities"]?.arrayValue?.count == 3)
    }

    @Test("a SQL-looking user name is simply a wrong user name")
    func sqlUserName() async throws {
        let server = try Shared.running()
        let response = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"),
            json: ["username": "' OR '1'='1' --", "password": "' OR '1'='1"])
        #expect(response.status == 401)
    }

    @Test("answers full of SQL and control characters are stored verbatim")
    func verbatimAnswers() async throws {
        let me = try await Session.inspector(try Shared.running())
        let nasty = "Robert'); DROP TABLE reports;-- \u{0}\u{7}\u{202E} ../../etc"
        let result = try await me.syncOne(Reports.lobby(answers: ["notes": .string(nasty)]))
        let serverID = try #require(result["server_id"]?.stringValue)
        #expect(
            try await me.get("/reports/\(serverID)").data["report"]?["payload"]?["answers"]?["notes"]?.stringValue
                == nasty)
    }

    @Test("unknown routes are 404 and wrong methods 405, both with the envelope")
    func unknownRoutes() async throws {
        let server = try Shared.running()
        let client = HTTPTestClient()
        let missing = try await client.send("GET", server.url("/no/such/thing"))
        #expect(missing.status == 404)
        #expect(missing.code == "NOT_FOUND")
        let root = try await client.send("GET", server.baseURL + "/")
        #expect(root.status == 404)
        let wrong = try await client.send("DELETE", server.url("/facilities"))
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "GET")
    }
}
