import Foundation
import Models
import Testing
import TestSupport

/// Alerts sent right away, through a real SMTP server on loopback, read
/// back with Python's strict e-mail parser (both stores).
@Suite("Mail alerts through a real relay", .timeLimit(.minutes(3)))
struct MailAlertTests {
    static let publicURL = "https://qc.example.invalid"

    /// A server sending mail to `receiver`, with crew `cora`, a client `clara`
    /// of F-100 and addresses for the demo supervisor, inspector, cora and clara.
    static func started(_ receiver: SMTPReceiver, extra: [String] = [], clock: DeviceClock? = nil) throws
        -> ServerProcess
    {
        let server = try ServerProcess(
            mailArguments(receiver) + extra, clock: clock
        ) { db in
            let added = try Programs.run(
                "jqc-server", ["admin", "--db", db, "user", "add", "cora", "--role", "crew"], stdin: "cora-password\n")
            guard added.status == 0 else { throw ServerLaunchError(message: "user add: \(added.stderr)") }
        }
        // The demo's sites exist once it has started.
        let client = try Programs.run(
            "jqc-server",
            ["admin", "--db", server.databasePath, "user", "add", "clara", "--role", "client", "--facility", "F-100"],
            stdin: "clara-password\n")
        try #require(client.status == 0, "user add clara: \(client.stderr)")
        for name in ["supervisor", "inspector", "cora", "clara"] {
            try setEmail(server, name, "\(name)@example.org")
        }
        return server
    }

    /// The serve options of a server sending to `receiver`.
    static func mailArguments(_ receiver: SMTPReceiver) -> [String] {
        ["--demo", "--smtp-url", receiver.url, "--mail-from", "qc@example.org", "--public-url", publicURL]
            + ServerProcess.manyClients
    }

    static func setEmail(_ server: ServerProcess, _ name: String, _ address: String) throws {
        let done = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "user", "update", name, "--email", address])
        try #require(done.status == 0, "user update \(name): \(done.stderr)")
    }

    /// The messages to `address`, by kind (`X-JQC`-free: the Message-ID's first part).
    static func kinds(_ messages: [SMTPReceiver.Message], to address: String) -> [String] {
        messages.filter { $0.rcptTos == [address] }.map {
            String(($0.messageId ?? "").drop { $0 == "<" || $0.isWhitespace }.prefix { $0 != "." })
        }
        .sorted()
    }

    @Test(
        "a serious issue, an action assigned and a report returned each reach exactly the people they are for, once, well formed, linking to the console"
    )
    func rightAway() async throws {
        let receiver = try SMTPReceiver()
        let server = try Self.started(receiver)
        defer { _ = server.stop() }
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)

        let accepted = try await inspector.syncOne(
            ActionContractTests.report([("Door closer snapped", "critical")]))
        let serverID = try #require(accepted["server_id"]?.stringValue)
        let action = try #require(
            try await ActionContractTests.feed(supervisor).first {
                $0["source"]?["report_server_id"]?.stringValue == serverID
            })
        let actionID = try #require(action["id"]?.stringValue)
        #expect(try await ActionContractTests.update(supervisor, actionID, ["assignee": "cora"]).status == 200)
        let returned = try await supervisor.post(
            "/reports/\(serverID)/review",
            ["decision": "return", "revision": 1, "comment": "Add the closer's photo"])
        #expect(returned.status == 200, "\(returned.message)")

        let messages = try receiver.waitForMessages(count: 3, timeout: 30)
        // Nothing more arrives: each alert once.
        try await Task.sleep(for: .seconds(2))
        let all = try receiver.messages()
        #expect(all.count == 3, "\(all.map { "\($0.rcptTos) \($0.subject ?? "")" })")
        #expect(Self.kinds(all, to: "supervisor@example.org") == ["serious-issue"])
        #expect(Self.kinds(all, to: "cora@example.org") == ["action-assigned"])
        #expect(Self.kinds(all, to: "inspector@example.org") == ["report-returned"])
        #expect(Self.kinds(all, to: "clara@example.org").isEmpty)
        #expect(Set(all.compactMap(\.messageId)).count == all.count)
        for message in messages {
            #expect(message.parseError == nil && message.defects.isEmpty, "\(message.defects)")
            #expect(message.mailFrom == "qc@example.org")
            #expect(message.from?.contains("qc@example.org") == true)
            #expect(message.contentType == "multipart/alternative")
            let types = message.parts.map(\.contentType)
            #expect(types == ["text/plain", "text/html"])
            let text = message.parts.first?.text ?? ""
            #expect(text.contains(Self.publicURL + "/console/"), "\(text)")
            #expect(text.contains(Self.publicURL + "/console/mail"))
            #expect(message.headers.contains { $0.first == "Auto-Submitted" && $0.last == "auto-generated" })
        }
        let issue = try #require(all.first { $0.rcptTos == ["supervisor@example.org"] })
        #expect(issue.subject?.contains("Door closer snapped") == true)
        #expect(issue.parts.first?.text?.contains("/console/reports/\(serverID)") == true)
        let assigned = try #require(all.first { $0.rcptTos == ["cora@example.org"] })
        #expect(assigned.parts.first?.text?.contains("/console/actions/\(actionID)") == true)
        let back = try #require(all.first { $0.rcptTos == ["inspector@example.org"] })
        #expect(back.parts.first?.text?.contains("Add the closer's photo") == true)
        #expect(back.parts.last?.text?.contains("Add the closer&#39;s photo") == true)
    }

    @Test(
        "a client's request reaches the supervisor; an overdue action reaches the supervisor and its assignee who chose it, once, at its due time; nobody without an address is told"
    )
    func requestsAndOverdue() async throws {
        let receiver = try SMTPReceiver()
        let server = try Self.started(receiver)
        defer { _ = server.stop() }
        try Self.setEmail(server, "inspector", "")
        // Crew hear of what is assigned to them; cora asks to hear of overdue work too.
        let chosen = try Programs.run(
            "jqc-server",
            [
                "admin", "--db", server.databasePath, "user", "update", "cora", "--alerts",
                "action-assigned,action-overdue",
            ])
        try #require(chosen.status == 0, "\(chosen.stderr)")
        let supervisor = try await Session.supervisor(server)
        let clara = try await Session.login(server, "clara", "clara-password")
        let request = try await clara.post(
            "/actions",
            ["id": .string(UUID().uuidString.lowercased()), "facility_id": "F-100", "title": "Spill in lobby"])
        #expect(request.status == 201 || request.status == 200, "\(request.message)")
        let due = RFC3339.string(Date().addingTimeInterval(3))
        let made = try await supervisor.post(
            "/actions",
            [
                "id": .string(UUID().uuidString.lowercased()), "facility_id": "F-100", "title": "Replace mat",
                "assignee": "cora", "due_at": .string(due),
            ])
        #expect(made.status == 201 || made.status == 200, "\(made.message)")

        let messages = try receiver.waitForMessages(count: 4, timeout: 40)
        try await Task.sleep(for: .seconds(2))
        let all = try receiver.messages()
        #expect(Self.kinds(all, to: "supervisor@example.org") == ["action-overdue", "client-request"])
        #expect(Self.kinds(all, to: "cora@example.org") == ["action-assigned", "action-overdue"])
        #expect(Self.kinds(all, to: "inspector@example.org").isEmpty)
        #expect(Self.kinds(all, to: "clara@example.org").isEmpty)
        #expect(messages.count == 4 && all.count == 4)
        let asked = try #require(all.first { $0.subject?.hasPrefix("Request from") == true })
        #expect(asked.subject?.contains("Spill in lobby") == true)
    }

    @Test(
        "a site name holding 'Bcc:' and an issue holding CR, LF, 'Bcc:' and 1,000 non-ASCII characters make one well-formed message, to its one recipient, with no header added"
    )
    func hostileText() async throws {
        let receiver = try SMTPReceiver()
        let server = try Self.started(receiver)
        defer { _ = server.stop() }
        let renamed = try Programs.run(
            "jqc-server",
            [
                "admin", "--db", server.databasePath, "facility", "update", "F-100", "--name",
                "Lobby Bcc: evil@example.invalid <script>",
            ])
        try #require(renamed.status == 0, "\(renamed.stderr)")
        let inspector = try await Session.inspector(server)
        let hostile = "Leak\r\nBcc: evil@example.invalid\nX-Injected: yes " + String(repeating: "é漢😀", count: 334)
        _ = try await MailDigestTests.synced(inspector, ActionContractTests.report([(hostile, "critical")]))
        let messages = try receiver.waitForMessages(count: 1, timeout: 30)
        try await Task.sleep(for: .seconds(2))
        let all = try receiver.messages()
        #expect(all.count == 1 && messages.count == 1)
        let message = try #require(all.first)
        #expect(message.rcptTos == ["supervisor@example.org"])
        #expect(message.parseError == nil && message.defects.isEmpty, "\(message.defects)")
        let names = message.headers.compactMap { $0.first?.lowercased() }
        #expect(!names.contains("bcc") && !names.contains("x-injected"))
        #expect(names.filter { $0 == "subject" }.count == 1 && names.filter { $0 == "to" }.count == 1)
        let subject = message.subject ?? ""
        #expect(subject.contains("Leak"), "\(subject)")
        #expect(subject.contains("Bcc: evil@example.invalid X-Injected: yes é漢😀"))
        #expect(subject.contains("Lobby Bcc: evil@example.invalid <script>"))
        #expect(!subject.contains("\r") && !subject.contains("\n"))
        let html = message.parts.last?.text ?? ""
        #expect(html.contains("Lobby Bcc: evil@example.invalid &lt;script&gt;") && !html.contains("<script>"))
        let text = message.parts.first?.text ?? ""
        #expect(text.contains(String(repeating: "é漢😀", count: 334)))
        // Every line of the message as sent is within SMTP's limit, and seven-bit.
        let lines = message.raw.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 999 })
        #expect(message.raw.allSatisfy { $0 < 0x80 })
    }

    @Test(
        "a report below its pass mark and one with a critical field failed each tell the supervisor once; a passing one and an inspector who did not choose it are told nothing"
    )
    func failedReports() async throws {
        let receiver = try SMTPReceiver()
        let server = try Self.started(receiver)
        defer { _ = server.stop() }
        let template = Fixtures.url("templates/appa-five-level.json").path
        let published = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "template", "publish", template])
        try #require(published.status == 0, "\(published.stderr)")
        let inspector = try await Session.inspector(server)
        let passing = try await MailDigestTests.synced(
            inspector, ConsoleGradeTests.appa(floors: 1, restrooms: 2, trash: 1, sharps: "pass"))
        let below = try await MailDigestTests.synced(
            inspector, ConsoleGradeTests.appa(floors: 3, restrooms: 3, trash: 2, sharps: "pass"))
        let critical = try await MailDigestTests.synced(
            inspector, ConsoleGradeTests.appa(floors: 1, restrooms: 1, trash: 1, sharps: "fail"))

        _ = try receiver.waitForMessages(count: 2, timeout: 30)
        try await Task.sleep(for: .seconds(2))
        let all = try receiver.messages()
        #expect(Self.kinds(all, to: "supervisor@example.org") == ["report-failed", "report-failed"])
        #expect(all.count == 2, "\(all.map { "\($0.rcptTos) \($0.subject ?? "")" })")
        let texts = all.map { $0.parts.first?.text ?? "" }
        #expect(texts.contains { $0.contains("/console/reports/\(below)") && $0.contains(", failed, 2 deficiencies") })
        #expect(texts.contains { $0.contains("/console/reports/\(critical)") })
        #expect(!texts.contains { $0.contains(passing) })
        #expect(all.allSatisfy { $0.subject?.hasPrefix("Failed: ") == true })
    }
}
