import Foundation
import Models
import Testing
import TestSupport

/// The mail outbox against a relay that refuses, drops, stalls, and two
/// instances sending at once: no message lost, none sent twice outside the
/// one documented window, every refusal kept with its answer (both stores).
@Suite("Mail through a failing relay", .timeLimit(.minutes(4)))
struct MailFaultTests {
    /// Fast retries and a short send timeout.
    static let quick = ["--mail-first-retry-ms", "200", "--smtp-timeout", "2"]

    /// Makes one message: an action assigned to cora, who is told. Returns the action's id.
    static func assign(_ supervisor: Session, _ title: String) async throws -> String {
        let id = UUID().uuidString.lowercased()
        let made = try await MailDigestTests.patiently {
            try await supervisor.post(
                "/actions", ["id": .string(id), "facility_id": "F-100", "title": .string(title), "assignee": "cora"])
        }
        try #require(made.status == 201, "\(made.message)")
        return try #require(made.data["action"]?["id"]?.stringValue ?? made.data["id"]?.stringValue)
    }

    /// The messages to cora whose subject names `title`.
    static func arrived(_ receiver: SMTPReceiver, _ title: String) throws -> [SMTPReceiver.Message] {
        try receiver.messages().filter { $0.rcptTos == ["cora@example.org"] && $0.subject?.contains(title) == true }
    }

    /// Waits until `title`'s message arrived `count` times.
    static func wait(_ receiver: SMTPReceiver, _ title: String, count: Int = 1, seconds: Double = 30) async throws
        -> [SMTPReceiver.Message]
    {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let found = try arrived(receiver, title)
            if found.count >= count { return found }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try arrived(receiver, title)
    }

    static func admin(_ server: ServerProcess, _ words: [String]) throws -> ProcessOutcome {
        try Programs.run("jqc-server", ["admin", "--db", server.databasePath] + words)
    }

    @Test(
        "421 at connect, 451 after the message and a drop mid-message are tried again until sent once; 550 fails it for good with the answer kept, and 'mail retry' sends it; a stalled answer is the one window that sends twice, under one Message-ID"
    )
    func faults() async throws {
        let receiver = try SMTPReceiver()
        let server = try MailAlertTests.started(receiver, extra: Self.quick)
        defer { _ = server.stop() }
        let supervisor = try await Session.supervisor(server)

        try receiver.setFaults(.init(greetingCode: 421, failFirst: 2))
        _ = try await Self.assign(supervisor, "Greeting refused twice")
        #expect(try await Self.wait(receiver, "Greeting refused twice").count == 1)
        #expect(try receiver.stats.greetingsRefused == 2)

        try receiver.setFaults(.init(dataCode: 451, failFirst: 1))
        _ = try await Self.assign(supervisor, "Deferred once")
        #expect(try await Self.wait(receiver, "Deferred once").count == 1)

        try receiver.setFaults(.init(dropDuringData: true, failFirst: 1))
        _ = try await Self.assign(supervisor, "Dropped mid-message")
        #expect(try await Self.wait(receiver, "Dropped mid-message").count == 1)

        try receiver.setFaults(.init(rcptCode: 550, failFirst: 1))
        _ = try await Self.assign(supervisor, "Refused for good")
        var failed: JSONValue = .null
        for _ in 0..<100 {
            let queue = try Self.admin(server, ["mail", "queue", "--failed", "--json"])
            failed = (try? JSONValue.parse(Data(queue.stdout.utf8)))?["messages"]?.arrayValue?.first ?? .null
            if failed != .null { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(failed["state"] == "failed")
        #expect(failed["last_code"] == 550)
        #expect(failed["last_reply"]?.stringValue?.contains("550") == true, "\(failed)")
        #expect(try Self.arrived(receiver, "Refused for good").isEmpty)
        let retried = try Self.admin(server, ["mail", "retry", String(failed["id"]?.integerValue ?? 0)])
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(try await Self.wait(receiver, "Refused for good").count == 1)

        // The relay keeps the message but answers after the sender gave up: it is sent again, with the same id.
        try receiver.setFaults(.init(stall: 4, failFirst: 1))
        _ = try await Self.assign(supervisor, "Answered too late")
        let twice = try await Self.wait(receiver, "Answered too late", count: 2, seconds: 40)
        #expect(twice.count == 2)
        #expect(Set(twice.compactMap(\.messageId)).count == 1)
        try receiver.setFaults(.init())

        // Every other message arrived exactly once.
        try await Task.sleep(for: .seconds(2))
        let all = try receiver.messages()
        var counts: [String: Int] = [:]
        for message in all { counts[message.messageId ?? "", default: 0] += 1 }
        #expect(counts.values.filter { $0 > 1 }.count == 1, "\(counts)")
        #expect(counts.count == 5)
        let queue = try Self.admin(server, ["mail", "queue", "--json"])
        let states = (try? JSONValue.parse(Data(queue.stdout.utf8)))?["messages"]?.arrayValue?.map {
            $0["state"]?.stringValue ?? ""
        }
        #expect(states == Array(repeating: "sent", count: 5), "\(queue.stdout)")
    }

    @Test("two instances sending the same outbox at once send each of 40 messages exactly once")
    func twoInstances() async throws {
        let receiver = try SMTPReceiver()
        let first = try MailAlertTests.started(receiver, extra: Self.quick)
        defer { _ = first.stop() }
        let second = try ServerProcess(
            MailAlertTests.mailArguments(receiver) + Self.quick, database: first.databasePath)
        defer { _ = second.stop() }
        let supervisors = [try await Session.supervisor(first), try await Session.supervisor(second)]
        for index in 0..<40 {
            _ = try await Self.assign(supervisors[index % 2], "Task \(index) of forty")
        }
        let messages = try receiver.waitForMessages(count: 40, timeout: 60)
        try await Task.sleep(for: .seconds(2))
        let all = try receiver.messages()
        #expect(messages.count >= 40 && all.count == 40, "\(all.count)")
        #expect(Set(all.compactMap(\.messageId)).count == 40)
        #expect(Set(all.compactMap(\.subject)).count == 40)
    }
}
