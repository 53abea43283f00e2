import Foundation
import Models
import Networking
@testable import ServerCore
import Testing
import TestSupport

/// Webhook deliveries (contract 1.1) on the reference server, with a real
/// receiver on loopback (both stores: the server suite runs again on PostgreSQL).
@Suite("Webhooks (contract 1.1)", .timeLimit(.minutes(3)))
struct WebhookTests {
    @Test(
        "a receiver that answers 500, times out, then closes the connection still gets every event, once acknowledged, in order per report, every attempt signed"
    )
    func everyEventThroughFailures() async throws {
        let receiver = try WebhookReceiver { index in
            switch index {
            case 0: .status(500)
            case 1: .silence(seconds: 1.6)
            case 2: .close
            default: .status(200)
            }
        }
        let server = try ServerProcess(["--demo"] + Webhooks.quickRetries)
        let (secretFile, secret) = try Webhooks.secretFile(in: server.directory)
        _ = try Webhooks.add(server, url: receiver.url, secretFile: secretFile)
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)

        let first = UUID(), second = UUID()
        let batch = try await inspector.sync([
            Webhooks.lobby(localID: first, issues: ["cracked tile"]), Webhooks.lobby(localID: second),
        ])
        let results = try #require(batch.data["results"]?.arrayValue)
        let a = try #require(results.first?["server_id"]?.stringValue)
        let b = try #require(results.last?["server_id"]?.stringValue)
        // An amendment of A keeps its issue and adds one: only the new one is flagged.
        let amended = try await inspector.syncOne(
            Webhooks.lobby(
                localID: first, serverID: a, baseRevision: 1, notes: "mopped",
                issues: ["cracked tile", "no soap"]))
        #expect(amended["status"] == "ACCEPTED")
        let approved = try await supervisor.post("/reports/\(b)/review", ["decision": "approve", "revision": 1])
        #expect(approved.status == 200)

        #expect(
            receiver.wait(seconds: 60) { _ in Webhooks.firstAcknowledged(receiver).count >= 6 },
            "every event acknowledged: \(Webhooks.firstAcknowledged(receiver).map(Webhooks.label))")
        let events = Webhooks.firstAcknowledged(receiver)
        #expect(events.count == 6)
        let byReport = Dictionary(grouping: events, by: { Webhooks.report(of: $0) ?? "" })
        #expect(
            byReport[a]?.map(Webhooks.label) == [
                "report.accepted r1", "issue.flagged cracked tile", "report.accepted r2",
                "issue.flagged no soap",
            ])
        #expect(byReport[b]?.map(Webhooks.label) == ["report.accepted r1", "report.reviewed approved"])

        // What each event carries: the report as it was at that revision, the review, the issue with its report.
        let revisionOne = try #require(byReport[a]?.first)
        #expect(revisionOne["report"]?["payload"]?["answers"]?["notes"] == "fine")
        #expect(revisionOne["report"]?["review"]?["state"] == "awaiting_review")
        #expect(revisionOne["report"]?["template_version"] == 1)
        // The server's own grade (contract 1.2): a pass and a 4 of 5, no deficiency, no pass mark on this form.
        #expect(abs((revisionOne["report"]?["score"]?.numberValue ?? 0) - 0.9) < 1e-9)
        #expect(revisionOne["report"]?["deficiencies"] == [])
        #expect(revisionOne["report"]?["passed"] == nil)
        #expect(byReport[a]?[2]["report"]?["payload"]?["answers"]?["notes"] == "mopped")
        #expect(byReport[a]?[1]["issue"]?["local_id"]?.stringValue == Webhooks.issueID("cracked tile"))
        #expect(byReport[b]?.last?["review"]?["decided_by"]?["display_name"] == "Sam Supervisor")
        #expect(byReport[b]?.last?["report"]?["review"]?["state"] == "approved")

        // Every attempt, failed ones too, is signed over its exact body; an event's body is the same bytes every time.
        #expect(receiver.wait(seconds: 5) { $0.count == receiver.arrived })
        let requests = receiver.requests
        #expect(requests.count >= 9, "three failed attempts and six deliveries: \(requests.count)")
        #expect(requests.allSatisfy { Webhooks.signed($0, secret: secret) })
        let bodies = Dictionary(grouping: requests, by: { Webhooks.event($0)["id"]?.stringValue ?? "" }).mapValues {
            Set($0.map(\.body))
        }
        #expect(bodies.values.allSatisfy { $0.count == 1 })
        #expect(requests.allSatisfy { $0.headers["content-type"] == "application/json" })

        // The server's record agrees: every delivery delivered, each attempt counted once.
        let deliveries = try Webhooks.deliveries(server)
        #expect(deliveries.count == 6)
        #expect(deliveries.allSatisfy { $0["state"] == "delivered" })
        #expect(deliveries.compactMap { $0["attempts"]?.integerValue }.reduce(0, +) == Int64(requests.count))
        #expect(server.stderr.contains("\"kind\":\"webhook\""))
    }

    @Test(
        "a receiver's 410 disables the hook; enabled again, it gets what happened meanwhile, and a replay sends the same event, byte for byte"
    )
    func goneDisablesAndReplayResends() async throws {
        let receiver = try WebhookReceiver { index in index == 0 ? .status(410) : .status(200) }
        let server = try ServerProcess(["--demo"] + Webhooks.quickRetries)
        let (secretFile, _) = try Webhooks.secretFile(in: server.directory)
        let hook = try Webhooks.add(server, url: receiver.url, secretFile: secretFile, events: "report.accepted")
        let inspector = try await Session.inspector(server)
        _ = try await inspector.syncOne(Webhooks.lobby(localID: UUID()))

        #expect(receiver.wait(seconds: 30) { $0.count == 1 })
        var listed: JSONValue = .null
        for _ in 0..<100 {
            listed = try Webhooks.json(Webhooks.admin(server, ["list"]))["webhooks"]?.arrayValue?.first ?? .null
            if listed["state"] == "disabled" { break }
            usleep(100_000)
        }
        #expect(listed["state"] == "disabled")
        #expect(listed["disabled_reason"]?.stringValue?.contains("410") == true)
        let failed = try Webhooks.deliveries(server, failed: true)
        #expect(failed.count == 1)
        #expect(failed.first?["last_status"] == 410)

        // A disabled hook is sent nothing; what happens meanwhile waits for it.
        let later = try await inspector.syncOne(Webhooks.lobby(localID: UUID()))
        let laterID = try #require(later["server_id"]?.stringValue)
        usleep(1_500_000)
        #expect(try Webhooks.deliveries(server).count == 1)
        #expect(receiver.requests.count == 1)

        _ = try Webhooks.json(Webhooks.admin(server, ["enable", hook]))
        let delivery = try #require(failed.first?["id"]?.integerValue)
        let replayed = try Webhooks.json(Webhooks.admin(server, ["replay", String(delivery)]))
        #expect(replayed["delivery"]?["state"] == "pending")
        #expect(receiver.wait(seconds: 30) { $0.count == 3 })
        let requests = receiver.requests
        let first = try #require(requests.first)
        #expect(
            requests.dropFirst().filter { $0.body == first.body }.count == 1,
            "a replay posts the same bytes, the same event id")
        #expect(
            requests.contains { Webhooks.report(of: Webhooks.event($0)) == laterID },
            "the report accepted meanwhile is sent once enabled")
        #expect(
            receiver.wait(seconds: 10) { _ in
                (try? Webhooks.deliveries(server).allSatisfy { $0["state"] == "delivered" }) == true
            })
        #expect(try Webhooks.admin(server, ["replay", "999999"]).status != 0)
    }

    @Test("delivered events are cleared after --webhook-keep-days; failed ones stay for replay")
    func oldDeliveriesCleared() async throws {
        let receiver = try WebhookReceiver()
        let server = try ServerProcess(["--demo"] + Webhooks.quickRetries)
        let (secretFile, _) = try Webhooks.secretFile(in: server.directory)
        _ = try Webhooks.add(server, url: receiver.url, secretFile: secretFile, events: "report.accepted")
        let inspector = try await Session.inspector(server)
        _ = try await inspector.syncOne(Webhooks.lobby(localID: UUID()))
        _ = try await inspector.syncOne(Webhooks.lobby(localID: UUID()))
        #expect(
            receiver.wait(seconds: 30) { _ in
                (try? Webhooks.deliveries(server).allSatisfy { $0["state"] == "delivered" }) == true
            })
        // One delivered long ago, one failed long ago: a restarted server clears the first at once.
        try ServerDatabases.query(
            server.databasePath,
            """
            UPDATE webhook_deliveries SET delivered_at = '2020-01-01T00:00:00Z' WHERE id = (SELECT MIN(id) FROM webhook_deliveries);
            UPDATE webhook_deliveries SET state = 'failed', delivered_at = NULL, last_attempt_at = '2020-01-01T00:00:00Z'
            WHERE id = (SELECT MAX(id) FROM webhook_deliveries)
            """)
        #expect(server.stop() == 0)
        let again = try ServerProcess(["--demo", "--webhook-keep-days", "30"], database: server.databasePath)
        var left: [JSONValue] = []
        for _ in 0..<100 {
            left = try Webhooks.deliveries(again)
            if left.count == 1 { break }
            usleep(100_000)
        }
        #expect(left.map { $0["state"] } == ["failed"])
        #expect(try ServerDatabases.query(again.databasePath, "SELECT count(*) FROM webhook_deliveries") == "1")
    }

    @Test(
        "private targets are refused unless the operator allows them; a name that does not resolve is retried; redirects are not followed"
    )
    func targets() async throws {
        // The most attempts allowed, so a delivery to a name that does not resolve is still waiting
        // when a loaded machine first reads it (ten quick ones can all be spent in a few seconds).
        let server = try ServerProcess(["--demo"] + Webhooks.quickRetries(attempts: 100))
        let (secretFile, _) = try Webhooks.secretFile(in: server.directory)
        for url in [
            "http://127.0.0.1:9/hook", "http://[::1]/hook", "http://10.1.2.3/hook", "http://169.254.169.254/latest",
            "http://localhost:8080/", "http://192.168.0.10/",
        ] {
            let refused = try Webhooks.admin(server, ["add", url, "--secret-file", secretFile])
            #expect(refused.status == 4, "\(url): \(refused.stderr)")
            #expect((refused.stdout + refused.stderr).contains("--allow-private-targets"), "\(url): \(refused.stdout)")
        }
        for (url, words) in [
            ("ftp://hooks.invalid/", "http or https"), ("http://user:password@hooks.invalid/", "user name or password"),
            ("not a url", "not a URL"),
        ] {
            let refused = try Webhooks.admin(server, ["add", url, "--secret-file", secretFile])
            #expect(refused.status == 4)
            #expect((refused.stdout + refused.stderr).contains(words), "\(url): \(refused.stdout)")
        }
        let short = server.directory.path("short-secret")
        try Data("tiny\n".utf8).write(to: URL(fileURLWithPath: short))
        let tooShort = try Webhooks.admin(server, ["add", "https://hooks.invalid/", "--secret-file", short])
        #expect((tooShort.stdout + tooShort.stderr).contains("shorter than 16"))
        #expect(try Webhooks.json(Webhooks.admin(server, ["list"]))["webhooks"]?.arrayValue?.isEmpty == true)

        // An outside name is accepted; while it does not resolve, the delivery waits for another attempt.
        let nowhere = try Webhooks.json(
            Webhooks.admin(
                server,
                [
                    "add", "https://hooks.invalid/receive", "--secret-file", secretFile,
                    "--events", "report.accepted",
                ]))
        let nowhereID = try #require(nowhere["webhook"]?["id"]?.stringValue)
        let inspector = try await Session.inspector(server)
        _ = try await inspector.syncOne(Webhooks.lobby(localID: UUID()))
        var pending: JSONValue = .null
        for _ in 0..<100 {
            pending = try Webhooks.deliveries(server).first ?? .null
            if (pending["attempts"]?.integerValue ?? 0) >= 1 { break }
            usleep(100_000)
        }
        #expect(pending["state"] == "pending")
        #expect(pending["last_error"]?.stringValue?.contains("cannot resolve") == true, "\(pending)")
        _ = try Webhooks.json(Webhooks.admin(server, ["remove", nowhereID]))
        #expect(try Webhooks.deliveries(server).isEmpty, "a removed hook's deliveries go with it")

        // A redirect is an answer like any other that is not 2xx: retried, never followed.
        let receiver = try WebhookReceiver { _ in .status(302, headers: ["Location: /elsewhere"]) }
        _ = try Webhooks.add(server, url: receiver.url, secretFile: secretFile, events: "report.accepted")
        _ = try await inspector.syncOne(Webhooks.lobby(localID: UUID()))
        #expect(receiver.wait(seconds: 30) { $0.count >= 2 })
        #expect(receiver.requests.allSatisfy { $0.path == "/hook" })
        let redirected = try #require(try Webhooks.deliveries(server).first)
        #expect(redirected["last_error"]?.stringValue?.contains("redirect") == true, "\(redirected)")
    }

    @Test("the addresses a hook may not reach without --allow-private-targets")
    func internalAddresses() throws {
        let inside = [
            "127.0.0.1": "loopback", "10.0.0.1": "private", "172.16.0.1": "private", "172.31.255.255": "private",
            "192.168.1.1": "private", "169.254.169.254": "link-local", "100.64.0.1": "shared (carrier-grade NAT)",
            "0.0.0.0": "unspecified", "::1": "loopback", "::": "unspecified", "fe80::1": "link-local",
            "fd00::1": "private (unique local)", "::ffff:127.0.0.1": "loopback", "64:ff9b::a00:1": "private",
            "224.0.0.1": "multicast",
        ]
        for (address, kind) in inside {
            let bytes = try #require(WebhookTarget.literal(address), "\(address)")
            #expect(InternalAddress.kind(of: bytes) == kind, "\(address)")
        }
        for address in ["8.8.8.8", "172.32.0.1", "1.1.1.1", "2606:4700::1111", "::ffff:8.8.4.4"] {
            let bytes = try #require(WebhookTarget.literal(address))
            #expect(InternalAddress.kind(of: bytes) == nil, "\(address)")
        }
    }

    @Test("retries wait longer each time, with jitter, up to the ceiling; the last attempt fails for good")
    func schedule() {
        var settings = WebhookSettings()
        settings.firstDelay = 10
        settings.longestDelay = 3600
        settings.attempts = 5
        #expect(settings.delay(afterAttempt: 1, random: 0) == 5)
        #expect(settings.delay(afterAttempt: 1, random: 1) == 10)
        #expect(settings.delay(afterAttempt: 3, random: 1) == 40)
        #expect(settings.delay(afterAttempt: 30, random: 1) == 3600)
        let now = Date()
        let failing = Result<HTTPResponse, NetworkingError>.success(
            HTTPResponse(status: 503, headers: [:], body: Data()))
        #expect(settings.record(failing, made: 0, now: now, random: 0.5).state == .pending)
        let last = settings.record(failing, made: 4, now: now, random: 0.5)
        #expect(last.state == .failed)
        #expect(last.error?.contains("gave up after 5 attempts") == true)
        #expect(
            settings.record(
                .success(HTTPResponse(status: 204, headers: [:], body: Data())), made: 4, now: now, random: 0
            ).state == .delivered)
    }

    @Test("the receiver in the docs checks the signature: it prints what the server sends and refuses a forged post")
    func documentedReceiver() async throws {
        let server = try ServerProcess(["--demo"] + Webhooks.quickRetries)
        let (secretFile, _) = try Webhooks.secretFile(in: server.directory)
        let port = try CannedHTTPServer.closedPort()
        let output = server.directory.path("receiver.out")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", FieldTypePlugins.examplesDirectory.deletingLastPathComponent().path + "/webhooks/receiver.py",
            String(port),
        ]
        python.environment = ProcessInfo.processInfo.environment.merging(["JQC_WEBHOOK_SECRET_FILE": secretFile]) {
            _, new in new
        }
        // Its own files, never the test's pipes (which the runner reads to their end).
        python.standardOutput = FileHandle(forWritingAtPath: output)
        python.standardError = FileHandle(forWritingAtPath: output)
        python.standardInput = FileHandle.nullDevice
        try python.run()
        // SIGKILL: a signal the test runner blocks stays blocked in its children.
        defer {
            kill(python.processIdentifier, SIGKILL)
            python.waitUntilExit()
        }
        // Python takes a moment to start listening.
        var connection: RawConnection?
        for _ in 0..<100 where connection == nil {
            connection = try? RawConnection(port: UInt16(port))
            if connection == nil { usleep(100_000) }
        }
        let body = #"{"id": "x", "type": "report.accepted"}"#
        let forged = try #require(connection).exchange(
            Data(
                ("POST /hook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "X-JQC-Signature: t=\(Int(Date().timeIntervalSince1970)),v1=00\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8), timeout: 10)
        #expect(forged?.status == 401, "a post without the secret's signature is refused")

        _ = try Webhooks.add(
            server, url: "http://127.0.0.1:\(port)/hook", secretFile: secretFile, events: "report.accepted")
        let inspector = try await Session.inspector(server)
        let accepted = try await inspector.syncOne(Webhooks.lobby(localID: UUID()))
        let serverID = try #require(accepted["server_id"]?.stringValue)
        var printed = ""
        for _ in 0..<200 where !printed.contains(serverID) {
            usleep(100_000)
            printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        }
        #expect(printed.contains(serverID), "the receiver printed the event: \(printed)")
        #expect(!printed.contains("\"id\": \"x\""))
    }
}
