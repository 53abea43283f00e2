import Foundation
import Models
import Testing
import TestSupport

/// What a newcomer missed in the console: the time an inspection was done
/// (not when the agent synced it), a queue that says which report is which
/// and which is serious, and an assignment form that knows the site's areas.
@Suite("Newcomer trial: the console's queue, report page and assignment form")
struct ConsoleNewcomerTests {
    /// The queue row of one report, from its `<tr>` to its `</tr>`.
    static func row(_ serverID: String, in page: String) -> String {
        guard let start = page.range(of: "data-server-id=\"\(serverID)\"") else { return "" }
        let rest = page[start.lowerBound...]
        return String(rest[..<(rest.range(of: "</tr>")?.upperBound ?? rest.endIndex)])
    }

    /// A lobby report carrying one issue of `severity`.
    static func report(severity: String, completedOnDevice: String?) -> JSONValue {
        var report = Reports.lobby().setting(
            "issues",
            [
                [
                    "local_id": .string(UUID().uuidString.lowercased()), "description": "Cracked basin",
                    "severity": .string(severity), "photo_local_ids": [],
                ]
            ])
        if let completedOnDevice { report = report.setting("completed_at_device", .string(completedOnDevice)) }
        return report
    }

    @Test(
        "the queue shows a short number (the whole id on hover and in the link), the area, a mark for a high or critical issue, and the device's completion time beside the time received"
    )
    func queueRows() async throws {
        // A server of its own: the shared one's queue fills with other suites' reports meanwhile.
        let server = try ServerProcess(["--demo"])
        defer { _ = server.stop() }
        let inspector = try await Session.inspector(server)
        let serious = try #require(
            try await inspector.syncOne(Self.report(severity: "critical", completedOnDevice: "2026-03-01T21:54:04Z"))[
                "server_id"]?.stringValue)
        let minor = try #require(
            try await inspector.syncOne(Self.report(severity: "medium", completedOnDevice: nil))["server_id"]?
                .stringValue)
        let browser = ConsoleClient(server)
        try browser.signIn("supervisor", "supervisor-pass")
        let page = try browser.get("/console/queue?state=&inspector=\(inspector.userID)&sort=newest").text

        let row = Self.row(serious, in: page)
        #expect(
            row.contains(
                "<a class=\"open\" title=\"\(serious)\" href=\"/console/reports/\(serious)\">\(serious.prefix(8))…</a>"),
            "\(row)")
        #expect(!row.contains(">\(serious)<"), "the whole id is not the link's text: \(row)")
        #expect(row.contains("<td class=\"area\">Main lobby</td>"), "\(row)")
        #expect(row.contains("class=\"flag severity-critical\""), "\(row)")
        #expect(row.contains("2026-03-01 21:54 UTC</span> <small class=\"muted\">(device clock; received "), "\(row)")

        let other = Self.row(minor, in: page)
        #expect(other.contains("<td class=\"area\">Main lobby</td>"), "\(other)")
        #expect(!other.contains("severity-"), "a medium issue is not marked: \(other)")
        #expect(other.contains("<td class=\"completed\">received "), "\(other)")

        let report = try browser.get("/console/reports/\(serious)").text
        #expect(
            report.contains(
                "<dt>Completed</dt><dd>2026-03-01 21:54 UTC <span class=\"muted\">(device clock)</span></dd>"))
        #expect(report.contains("<dt>Received</dt><dd>"))
        let unsaid = try browser.get("/console/reports/\(minor)").text
        #expect(unsaid.contains("<dt>Completed</dt><dd><span class=\"muted\">not given by the device</span></dd>"))
    }

    @Test("the assignment form offers each live site's areas under its name, and an area of another site is refused")
    func assignmentAreas() async throws {
        let server = try AdministrationContractTests.server.get()
        let admin = ConsoleClient(server)
        #expect(try admin.signIn("ada", "ada-admin-password").status == 303)
        let page = try admin.get("/console/admin/assignments").text
        #expect(page.contains("<select name=\"area_id\"><option value=\"\">no particular area</option>"), "\(page)")
        #expect(page.contains("<optgroup label=\"Harbourview Office Tower\" data-facility=\"F-100\">"))
        #expect(page.contains("<option value=\"A-102\">Main lobby</option>"))
        #expect(!page.contains("name=\"area_id\" type=\"text\""))

        let token = try admin.csrf()
        let id = "AS-NC-\(UUID().uuidString.prefix(6))"
        let fields: [(String, String)] = [
            ("csrf", token), ("inspector", "inspector"), ("template_id", "101"), ("facility_id", "F-100"),
            ("due", "2030-01-01"),
        ]
        let made = try admin.post("/console/admin/assignment-create", fields + [("id", id), ("area_id", "A-102")])
        #expect(made.status == 303)
        let inspector = try await Session.inspector(server)
        let work = try await inspector.get("/assignments").data["assignments"]?.arrayValue ?? []
        #expect(work.contains { $0["id"]?.stringValue == id && $0["area_id"] == "A-102" })

        let facilities = try await inspector.get("/facilities").data["facilities"]?.arrayValue ?? []
        let elsewhere = try #require(facilities.compactMap { $0["id"]?.stringValue }.first { $0 != "F-100" })
        let areas = try await inspector.get("/facilities/\(elsewhere)/areas").data["areas"]?.arrayValue ?? []
        let foreign = try #require(areas.first?["id"]?.stringValue)
        let refused = try admin.post(
            "/console/admin/assignment-create", fields + [("id", id + "-X"), ("area_id", foreign)])
        #expect(refused.status == 422 || refused.status == 400, "\(refused.status)")
        #expect(refused.text.contains("is not an area of facility"), "\(refused.text)")
    }
}
