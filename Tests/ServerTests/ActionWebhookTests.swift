import Foundation
import Models
import Testing
import TestSupport

/// Webhook events of corrective actions (contract 1.2), with a real
/// receiver on loopback (both stores).
@Suite("Webhooks of corrective actions", .timeLimit(.minutes(3)))
struct ActionWebhookTests {
    @Test(
        "an action made from an issue, assigned and finished reaches a hook as action.created then two action.updated, each carrying the action as it stood then; a hook of report events gets none"
    )
    func actionEvents() async throws {
        let receiver = try WebhookReceiver()
        let reportsOnly = try WebhookReceiver()
        let server = try ActionContractTests.started()
        defer { _ = server.stop() }
        let (secretFile, _) = try Webhooks.secretFile(in: server.directory)
        _ = try Webhooks.add(
            server, url: receiver.url, secretFile: secretFile, events: "action.created,action.updated")
        _ = try Webhooks.add(server, url: reportsOnly.url, secretFile: secretFile)

        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        let cora = try await ActionContractTests.crew(server)
        let issue = UUID().uuidString.lowercased()
        let accepted = try await inspector.syncOne(
            ActionContractTests.report([("Door closer snapped", "critical")], ids: [issue]))
        let serverID = try #require(accepted["server_id"]?.stringValue)
        let action = try #require(
            try await ActionContractTests.feed(supervisor).first {
                $0["source"]?["report_server_id"]?.stringValue == serverID
            })
        let id = try #require(action["id"]?.stringValue)
        #expect(try await ActionContractTests.update(supervisor, id, ["assignee": "cora"]).status == 200)
        #expect(
            try await ActionContractTests.update(cora, id, ["state": "done", "comment": "New closer"]).status == 200)

        #expect(
            receiver.wait(seconds: 60) { _ in Webhooks.firstAcknowledged(receiver).count >= 3 },
            "\(Webhooks.firstAcknowledged(receiver).map { $0["type"]?.stringValue ?? "?" })")
        let events = Webhooks.firstAcknowledged(receiver)
        #expect(events.map { $0["type"]?.stringValue ?? "" } == ["action.created", "action.updated", "action.updated"])
        #expect(events.allSatisfy { $0["action"]?["id"]?.stringValue == id })
        #expect(events.map { $0["action"]?["version"]?.integerValue ?? 0 } == [1, 2, 3])
        #expect(events[0]["action"]?["state"] == "open" && events[0]["action"]?["assignee"] == nil)
        #expect(events[1]["action"]?["assignee"]?["username"] == "cora")
        #expect(events[2]["action"]?["state"] == "done")
        #expect(events[2]["action"]?["updates"]?.arrayValue?.last?["comment"] == "New closer")
        #expect(Set(events.compactMap { $0["id"]?.stringValue }).count == 3)

        // The hook of report events got the report's, and nothing of the action.
        #expect(reportsOnly.wait(seconds: 30) { _ in !Webhooks.firstAcknowledged(reportsOnly).isEmpty })
        #expect(
            !Webhooks.firstAcknowledged(reportsOnly).contains { $0["type"]?.stringValue?.hasPrefix("action.") == true })
    }
}
