import Foundation
import Models
import Testing
import TestSupport

/// The console reads a report's grade (contract 1.2): the score coloured by
/// the template's pass mark, not always green; deficient answers marked;
/// the queue filtered to failed reports and sorted by deficiencies.
@Suite("The console shows pass, fail and deficiencies")
struct ConsoleGradeTests {
    /// An APPA-style report (pass mark 80%) with these steps and sharps answer.
    static func appa(floors: Int, restrooms: Int, trash: Int, sharps: String) -> JSONValue {
        [
            "local_id": .string(UUID().uuidString.lowercased()), "template_id": "appa-five-level",
            "facility_id": "F-100",
            "payload": [
                "answers": [
                    "floors": .integer(Int64(floors)), "restrooms": .integer(Int64(restrooms)),
                    "trash": .integer(Int64(trash)), "sharps": .string(sharps),
                ],
                "score": 1, "follow_up_required": false,
            ],
            "issues": [],
        ]
    }

    @Test(
        "a pass is green, a fail below the mark or on a critical field is red and names its deficiencies; the queue shows only failed reports on asking, the most deficient first"
    )
    func grades() async throws {
        let template = Fixtures.url("templates/appa-five-level.json").path
        let server = try ServerProcess(["--demo"]) { db in
            let published = try Programs.run("jqc-server", ["admin", "--db", db, "template", "publish", template])
            guard published.status == 0 else { throw ServerLaunchError(message: "publish: \(published.stderr)") }
        }
        defer { _ = server.stop() }
        let inspector = try await Session.inspector(server)
        func send(_ report: JSONValue) async throws -> String {
            try #require(try await inspector.syncOne(report)["server_id"]?.stringValue)
        }
        let passing = try await send(Self.appa(floors: 1, restrooms: 2, trash: 1, sharps: "pass"))
        let below = try await send(Self.appa(floors: 3, restrooms: 3, trash: 2, sharps: "pass"))
        let critical = try await send(Self.appa(floors: 1, restrooms: 1, trash: 1, sharps: "fail"))
        let ungraded = try await send(Reports.lobby())

        let browser = ConsoleClient(server)
        try browser.signIn("supervisor", "supervisor-pass")
        let passPage = try browser.get("/console/reports/\(passing)").text
        #expect(passPage.contains("<section id=\"score\" class=\"score passed\">"), "\(passPage)")
        #expect(passPage.contains("Passed (pass mark 80%)"))
        let belowPage = try browser.get("/console/reports/\(below)").text
        #expect(belowPage.contains("<section id=\"score\" class=\"score failed\">"))
        #expect(belowPage.contains("Failed: below the pass mark (pass mark 80%)"))
        #expect(belowPage.contains("2 deficiencies:</strong> Floors, Restrooms"), "\(belowPage)")
        #expect(belowPage.contains("<div class=\"field deficient\" data-field-id=\"floors\">"))
        #expect(!belowPage.contains("<div class=\"field deficient\" data-field-id=\"trash\">"))
        let criticalPage = try browser.get("/console/reports/\(critical)").text
        #expect(criticalPage.contains("class=\"score failed\""))
        #expect(criticalPage.contains("Failed: a critical field failed (pass mark 80%)"))
        let lobbyPage = try browser.get("/console/reports/\(ungraded)").text
        #expect(lobbyPage.contains("<section id=\"score\" class=\"score\">"), "no pass mark: neither green nor red")

        let failedOnly = try browser.get("/console/queue?state=&outcome=failed&sort=deficiencies").text
        let order = [below, critical, passing, ungraded].map { id in
            failedOnly.range(of: "data-server-id=\"\(id)\"")?.lowerBound
        }
        #expect(order[0] != nil && order[1] != nil && order[2] == nil && order[3] == nil, "only the failed ones")
        if let first = order[0], let second = order[1] { #expect(first < second, "two deficiencies before one") }
        #expect(ConsoleNewcomerTests.row(below, in: failedOnly).contains("<td class=\"deficiencies num\">2</td>"))
        #expect(ConsoleNewcomerTests.row(below, in: failedOnly).contains("class=\"score num failed\""))
        #expect(try browser.get("/console/queue?outcome=sometimes").status == 400)
    }
}
