import Foundation
import Models
import Testing
import TestSupport

/// A stated limit holds in bytes as well as characters: one character
/// carrying thousands of combining marks is refused (both stores).
@Suite("Security trial: length limits in bytes")
struct AdminInputLimitTests {
    /// One character (a grapheme cluster) of about `bytes` bytes of UTF-8.
    static func heavy(_ bytes: Int) -> String { "e" + String(repeating: "\u{301}", count: bytes / 2) }

    @Test("ids, names, addresses and display names of one heavy character each are refused")
    func administrationLimits() async throws {
        let server = try AdminRules.server.get()
        let admin = try await AdminRules.admin(server)
        let heavy = Self.heavy(20_000)
        #expect(heavy.count == 1)
        let id = try await admin.post("/admin/facilities", ["id": .string("F-" + heavy), "name": "Heavy"])
        #expect(id.status == 400, "a facility id: \(id.status)")
        let name = try await admin.post(
            "/admin/facilities", ["id": .string(AdminRules.unique("F-H-")), "name": .string(heavy)])
        #expect(name.status == 400, "a facility name: \(name.status)")
        let address = try await admin.post(
            "/admin/facilities",
            ["id": .string(AdminRules.unique("F-H-")), "name": "Heavy", "address": .string(heavy)])
        #expect(address.status == 400, "an address: \(address.status)")
        let area = try await admin.post(
            "/admin/areas",
            ["id": .string(AdminRules.unique("A-H-")), "facility_id": "F-100", "name": .string(heavy)])
        #expect(area.status == 400, "an area name: \(area.status)")
        let user = try await admin.post(
            "/admin/users",
            [
                "username": .string(AdminRules.unique("heavy")), "password": "a-long-password-1",
                "display_name": .string(heavy),
            ])
        #expect(user.status == 400, "a display name: \(user.status)")
    }

    @Test("a review comment and a field comment of one heavy character are refused")
    func commentLimits() async throws {
        let server = try Shared.running()
        let inspector = try await Session.other(server)
        let supervisor = try await Session.supervisor(server)
        let serverID = try await ReviewContractTests.accepted(inspector)
        let heavy = Self.heavy(40_000)
        let comment = try await supervisor.post(
            "/reports/\(serverID)/review", ["decision": "return", "revision": 1, "comment": .string(heavy)])
        #expect(comment.status == 400, "a comment: \(comment.status)")
        let field = try await supervisor.post(
            "/reports/\(serverID)/review",
            [
                "decision": "return", "revision": 1,
                "field_comments": [["field_id": "glass", "comment": .string(heavy)]],
            ])
        #expect(field.status == 400, "a field comment: \(field.status)")
        #expect(
            try await inspector.get("/reports/\(serverID)").data["report"]?["review"]?["state"] == "awaiting_review")
    }
}
