import Foundation
import Models
import Testing
import TestSupport

/// Review decisions: never on one's own report, never without a reason
/// that survives sanitising (both stores).
@Suite("Security trial: review decisions")
struct ReviewTrialTests {
    @Test("a supervisor may not approve, return or reject their own report: 403 over the API and in the console")
    func ownReport() async throws {
        let server = try Shared.running()
        let supervisor = try await Session.supervisor(server)
        let mine = try await ReviewContractTests.accepted(supervisor)
        for (decision, comment) in [("approve", nil), ("return", "redo"), ("reject", "no")] as [(String, String?)] {
            var body: [String: JSONValue] = ["decision": .string(decision), "revision": 1]
            if let comment { body["comment"] = .string(comment) }
            let answer = try await supervisor.post("/reports/\(mine)/review", .object(body))
            #expect(answer.status == 403, "\(decision): \(answer.status)")
            #expect(answer.message.contains("your own report"), "\(answer.message)")
        }
        let browser = ConsoleClient(server)
        try browser.signIn("supervisor", "supervisor-pass")
        let page = try browser.post(
            "/console/reports/\(mine)/review",
            [("csrf", try browser.csrf()), ("decision", "approve"), ("revision", "1")])
        #expect(page.status == 403)
        #expect(try await supervisor.get("/reports/\(mine)").data["report"]?["review"]?["state"] == "awaiting_review")
    }

    @Test("a return whose comment is only control characters is refused as one without a comment")
    func controlOnlyComment() async throws {
        let server = try Shared.running()
        let inspector = try await Session.other(server)
        let supervisor = try await Session.supervisor(server)
        let serverID = try await ReviewContractTests.accepted(inspector)
        let refused = try await supervisor.post(
            "/reports/\(serverID)/review", ["decision": "return", "revision": 1, "comment": "\u{1}\u{7}\u{1B}\u{7F}"])
        #expect(refused.status == 400, "\(refused.status)")
        #expect(refused.message.contains("say why"), "\(refused.message)")
        let field = try await supervisor.post(
            "/reports/\(serverID)/review",
            [
                "decision": "reject", "revision": 1, "comment": "\u{0}",
                "field_comments": [["field_id": "glass", "comment": "\u{8}\u{8}"]],
            ])
        #expect(field.status == 400, "\(field.status)")
        #expect(
            try await inspector.get("/reports/\(serverID)").data["report"]?["review"]?["state"] == "awaiting_review")
    }
}
