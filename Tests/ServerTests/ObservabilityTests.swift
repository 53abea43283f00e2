import Foundation
import Models
import Testing
import TestSupport

@Suite("What the server shows its operator: the access log and the metrics")
struct ObservabilityTests {
    /// One request the test made, and what the log must say of it.
    struct Sent {
        var method: String
        var route: String
        var status: Int
        var requestID: String?
        var userID: String?
    }

    /// Signs in, syncs a report, reads it, refreshes, and asks a few things
    /// the server refuses; returns what was sent and the secrets involved.
    static func traffic(_ server: ObservedServer) async throws -> (sent: [Sent], secrets: [String]) {
        let client = HTTPTestClient()
        var sent: [Sent] = []
        func note(_ method: String, _ route: String, _ response: TestResponse, user: String? = nil) {
            sent.append(
                Sent(
                    method: method, route: route, status: response.status, requestID: response.header("X-Request-Id"),
                    userID: user))
        }
        let login = try await client.send(
            "POST", server.url("/auth/login"),
            json: ["username": "inspector", "password": "inspector-pass"])
        try #require(login.status == 200)
        note("POST", "/api/v1/auth/login", login)
        let access = try #require(login.data["access_token"]?.stringValue)
        let refresh = try #require(login.data["refresh_token"]?.stringValue)
        let userID = try #require(login.data["user"]?["id"]?.stringValue)

        let me = try await client.send("GET", server.url("/auth/me"), token: access)
        note("GET", "/api/v1/auth/me", me, user: userID)
        let synced = try await client.send(
            "POST", server.url("/reports/sync"),
            json: [
                "device_id": .string(UUID().uuidString.lowercased()), "app_version": "0.1.0", "schema_version": 1,
                "reports": [Reports.lobby()],
            ], token: access)
        note("POST", "/api/v1/reports/sync", synced, user: userID)
        let serverID = try #require(synced.data["results"]?.arrayValue?.first?["server_id"]?.stringValue)
        let report = try await client.send("GET", server.url("/reports/\(serverID)"), token: access)
        note("GET", "/api/v1/reports/{server_id}", report, user: userID)
        // A query string is never logged, whatever it holds.
        let queried = try await client.send("GET", server.url("/facilities?token=query-secret-1234"), token: access)
        note("GET", "/api/v1/facilities", queried, user: userID)
        let anonymous = try await client.send("GET", server.url("/facilities"))
        note("GET", "/api/v1/facilities", anonymous)
        let junk = try await client.send("GET", server.baseURL + "/api/v1/no-such/\(serverID)")
        note("GET", "unmatched", junk)
        let wrongMethod = try await client.send("DELETE", server.url("/reports/\(serverID)"), token: access)
        note("DELETE", "/api/v1/reports/{server_id}", wrongMethod)
        let refreshed = try await client.send(
            "POST", server.url("/auth/refresh"), json: ["refresh_token": .string(refresh)])
        note("POST", "/api/v1/auth/refresh", refreshed)
        let rotated = try #require(refreshed.data["refresh_token"]?.stringValue)
        let newAccess = try #require(refreshed.data["access_token"]?.stringValue)

        #expect(sent.map(\.status) == [200, 200, 200, 200, 200, 401, 404, 405, 200])
        return (sent, ["inspector-pass", access, refresh, rotated, newAccess, "query-secret-1234"])
    }

    @Test(
        "every request answered has one JSON access line with its route pattern, status and user, and no secret is in the log"
    )
    func accessLog() async throws {
        let server = try ObservedServer(["--metrics-port", "0"])
        let (sent, secrets) = try await Self.traffic(server)
        let whole = try server.log()
        let lines = try server.logLines(kind: "access")
        try #require(lines.count == sent.count, "\(sent.count) requests, \(lines.count) access lines: \(whole)")
        for (request, line) in zip(sent, lines) {
            #expect(line["level"] == "info")
            #expect(line["method"]?.stringValue == request.method)
            #expect(line["route"]?.stringValue == request.route, "\(line)")
            #expect(line["status"] == .integer(Int64(request.status)), "\(line)")
            #expect(line["user_id"] == (request.userID.map { .string($0) } ?? .null), "\(line)")
            #expect(line["client"] == "127.0.0.1")
            let id = try #require(line["request_id"]?.stringValue)
            #expect(id.count == 16 && id.allSatisfy(\.isHexDigit), "\(id)")
            #expect(request.requestID == id, "the X-Request-Id answered is the one logged")
            let time = try #require(line["time"]?.stringValue)
            #expect(RFC3339.date(time) != nil && time.hasSuffix("Z"), "\(time)")
            #expect((line["duration_ms"]?.numberValue ?? -1) >= 0, "\(line)")
        }
        #expect(Set(sent.compactMap(\.requestID)).count == sent.count, "each request has an id of its own")
        for secret in secrets {
            #expect(!whole.contains(secret), "the log holds a secret: \(secret.prefix(12))…")
        }
        #expect(server.stop() == 0)
    }

    @Test(
        "/metrics on its own port passes promtool, and counts the requests, the sync results and the database connections"
    )
    func metrics() async throws {
        let server = try ObservedServer(["--metrics-port", "0"])
        let url = try #require(server.metricsURL, "no metrics line after the listening line: \(server.banner)")
        #expect(url.range(of: #"^http://127\.0\.0\.1:\d+/metrics$"#, options: .regularExpression) != nil, "\(url)")
        #expect(!url.hasPrefix(server.baseURL + "/"), "the metrics have an address of their own")
        let (sent, _) = try await Self.traffic(server)

        let scrape = try await HTTPTestClient().send("GET", url)
        #expect(scrape.status == 200)
        #expect(scrape.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = String(decoding: scrape.body, as: UTF8.self)
        let file = server.directory.path("metrics.txt")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let checked = try Programs.runShell("promtool check metrics < '\(file)'")
        #expect(checked.status == 0, "promtool: \(checked.stdout)\(checked.stderr)")

        var expected: [String: Int] = [:]
        for request in sent {
            let series =
                "jqc_server_requests_total{route=\"" + request.route + "\",method=\"" + request.method
                + "\",status=\"" + String(request.status) + "\"}"
            expected[series, default: 0] += 1
        }
        let samples = Self.samples(text)
        for (series, count) in expected {
            let counted = samples[series]
            #expect(counted == Double(count), "\(series): \(counted.map { String($0) } ?? "missing")")
        }
        #expect(samples.keys.filter { $0.hasPrefix("jqc_server_requests_total{") }.count == expected.count, "\(text)")
        #expect(samples["jqc_server_request_duration_seconds_count{route=\"/api/v1/facilities\"}"] == 2)
        #expect(samples["jqc_server_sync_reports_total{status=\"ACCEPTED\"}"] == 1)
        #expect(samples["jqc_server_sync_reports_total{status=\"REJECTED\"}"] == 0)
        #expect(samples["jqc_server_db_connections"] == 1)
        #expect(samples["jqc_server_log_lines_dropped_total"] == 0)
        #expect(samples["jqc_server_photos_stored_total"] == 0)
        #expect(samples["jqc_server_storage_full_refusals_total"] == 0)
        #expect(samples["jqc_server_webhook_attempts_total{outcome=\"delivered\"}"] == 0, "no hook, no attempt")
        for name in [
            "jqc_server_requests_total", "jqc_server_request_duration_seconds", "jqc_server_db_connections",
            "jqc_server_db_connections_in_use", "jqc_server_sync_reports_total", "jqc_server_photos_stored_total",
            "jqc_server_log_lines_dropped_total", "jqc_server_workers_busy", "jqc_server_webhook_attempts_total",
            "jqc_server_quota_refusals_total",
            "jqc_server_storage_full_refusals_total",
        ] {
            #expect(text.contains("# HELP \(name) ") && text.contains("# TYPE \(name) "), "\(name) has no HELP or TYPE")
        }
        // No raw path reaches a label: the report's id appears nowhere.
        #expect(!text.contains("R-"), "\(text)")
        let elsewhere = try await HTTPTestClient().send(
            "GET", url.replacingOccurrences(of: "/metrics", with: "/api/v1/auth/me"))
        #expect(elsewhere.status == 404)
        #expect(server.stop() == 0)
    }

    @Test(
        "on PostgreSQL the metrics show the pool's connections, none in use between requests, and count a new photo once"
    )
    func postgresPool() async throws {
        let server = try ObservedServer(
            ["--metrics-port", "0", "--db-connections", "3"], database: try ServerDatabases.freshPostgres())
        let url = try #require(server.metricsURL)
        let client = HTTPTestClient()
        let login = try await client.send(
            "POST", server.url("/auth/login"), json: ["username": "inspector", "password": "inspector-pass"])
        let token = try #require(login.data["access_token"]?.stringValue)
        let synced = try await client.send(
            "POST", server.url("/reports/sync"),
            json: [
                "device_id": .string(UUID().uuidString.lowercased()), "app_version": "0.1.0", "schema_version": 1,
                "reports": [Reports.lobby()],
            ], token: token)
        let serverID = try #require(synced.data["results"]?.arrayValue?.first?["server_id"]?.stringValue)
        let photo = PhotoContractTests.jpeg(4_000)
        let fields = [("local_id", UUID().uuidString.lowercased()), ("sha256", try PhotoContractTests.sha256(photo))]
        #expect(
            try await client.upload(
                server.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: token
            ).status == 201)
        #expect(
            try await client.upload(
                server.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: token
            ).status == 200)

        // Between requests: the server's own background work (webhook deliveries, sweeps) may hold a
        // connection for a moment on a loaded machine, so the count is read again until it settles.
        var text = String(decoding: try await client.send("GET", url).body, as: UTF8.self)
        var samples = Self.samples(text)
        for _ in 0..<20 where samples["jqc_server_db_connections_in_use"] != 0 {
            try await Task.sleep(for: .milliseconds(250))
            text = String(decoding: try await client.send("GET", url).body, as: UTF8.self)
            samples = Self.samples(text)
        }
        let open = try #require(samples["jqc_server_db_connections"])
        #expect(open >= 1 && open <= 3, "\(text)")
        #expect(samples["jqc_server_db_connections_in_use"] == 0)
        #expect(samples["jqc_server_photos_stored_total"] == 1, "a repeated upload is not a new photo")
        #expect(
            samples[
                "jqc_server_requests_total{route=\"/api/v1/reports/{server_id}/photos\",method=\"POST\",status=\"201\"}"
            ] == 1)
        let routes = try server.logLines(kind: "access").compactMap { $0["route"]?.stringValue }
        #expect(routes.filter { $0 == "/api/v1/reports/{server_id}/photos" }.count == 2, "\(routes)")
        #expect(server.stop() == 0)
    }

    @Test("--log-level error writes no access lines, while the requests are answered as before")
    func errorLevel() async throws {
        let server = try ObservedServer(["--log-level", "error"])
        let (sent, _) = try await Self.traffic(server)
        #expect(sent.allSatisfy { $0.requestID != nil })
        let levels = try ObservedServer.parse(server.log()).compactMap { $0["level"]?.stringValue }
        #expect(levels.allSatisfy { $0 == "error" }, "\(levels)")
        #expect(try server.logLines(kind: "access").isEmpty)
        #expect(server.stop() == 0)
    }

    @Test("a burst of requests leaves one access line each: the access log is not rate limited like the notes")
    func burst() async throws {
        let server = try ObservedServer([])
        let count = 300
        try await withThrowingTaskGroup(of: Int.self) { group in
            let client = HTTPTestClient()
            for index in 0..<count {
                group.addTask {
                    try await client.send("GET", server.url(index % 2 == 0 ? "/templates" : "/no-such-route")).status
                }
            }
            for try await status in group { #expect(status == 401 || status == 404) }
        }
        let lines = try server.logLines(kind: "access")
        #expect(lines.count == count, "\(lines.count) access lines for \(count) requests")
        #expect(lines.filter { $0["route"] == "/api/v1/templates" && $0["status"] == 401 }.count == count / 2)
        #expect(lines.filter { $0["route"] == "unmatched" && $0["status"] == 404 }.count == count / 2)
        #expect(server.stop() == 0)
    }

    @Test("after logrotate moves the log away, SIGHUP makes the server write a new file, 0600")
    func reopenOnHangUp() async throws {
        let server = try ObservedServer([])
        let client = HTTPTestClient()
        _ = try await client.send("GET", server.url("/facilities"))
        let rotated = server.logPath + ".1"
        try FileManager.default.moveItem(atPath: server.logPath, toPath: rotated)
        server.signal(SIGHUP)
        var reopened = false
        for _ in 0..<100 where !reopened {
            try await Task.sleep(for: .milliseconds(50))
            reopened = FileManager.default.fileExists(atPath: server.logPath)
        }
        try #require(reopened, "no new log file after SIGHUP")
        _ = try await client.send("GET", server.url("/templates"))
        let old = try ObservedServer.parse(String(contentsOfFile: rotated, encoding: .utf8))
        #expect(old.filter { $0["kind"] == "access" }.map { $0["route"] } == ["/api/v1/facilities"])
        #expect(try server.logLines(kind: "access").map { $0["route"] } == ["/api/v1/templates"])
        let mode = try FileManager.default.attributesOfItem(atPath: server.logPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(server.stop() == 0)
    }

    @Test(
        "bad log and metrics options are usage errors with exit 2",
        arguments: [
            ["--db", "/tmp/x.db", "--log-level", "loud"],
            ["--db", "/tmp/x.db", "--metrics-port", "70000"],
            ["--db", "/tmp/x.db", "--metrics-host", "127.0.0.1"],
        ])
    func usageErrors(_ arguments: [String]) throws {
        let outcome = try Programs.run("jqc-server", arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("jqc-server: ") && outcome.stderr.contains("--"), "\(outcome.stderr)")
    }

    /// `name{labels} value` lines by their series.
    static func samples(_ text: String) -> [String: Double] {
        var out: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                continue
            }
            out[String(line[..<space])] = value
        }
        return out
    }
}
