import Foundation
import Models
import Testing
import TestSupport

/// Digests at 07:00 in the organisation's time zone, through a real relay:
/// made once per person and period whatever the number of instances, only
/// when their sites had activity, the client's client-safe with its site
/// summary attached (both stores).
@Suite("Mail digests", .timeLimit(.minutes(4)))
struct MailDigestTests {
    /// Sunday 6 December 2026, noon UTC (the organisation's zone until set).
    static let sunday = DeviceClock(start: Date(timeIntervalSince1970: 1_796_558_400))
    /// The Monday after, 07:00:20 UTC: the daily digest of Sunday and the weekly one of the week before are due.
    static let monday = DeviceClock(start: Date(timeIntervalSince1970: 1_796_626_820))

    /// Syncs one report, waiting out a busy server (503) as a device does; its server id.
    static func synced(_ session: Session, _ report: JSONValue) async throws -> String {
        let response = try await patiently { try await session.sync([report]) }
        try #require(response.status == 200, "sync: \(response.status) \(response.message)")
        return try #require(response.data["results"]?.arrayValue?.first?["server_id"]?.stringValue)
    }

    /// A request sent again while the server answers 503 (busy), as clients do.
    static func patiently(_ send: () async throws -> TestResponse) async throws -> TestResponse {
        var response = try await send()
        for _ in 0..<10 where response.status == 503 {
            try await Task.sleep(for: .seconds(1))
            response = try await send()
        }
        return response
    }

    @Test(
        "on Monday at 07:00 three instances make the supervisor's daily digest and the client's weekly one once each; the client's holds only approved work, no internal action, and the site summary PDF"
    )
    func digests() async throws {
        #expect(RFC3339.string(Self.sunday.start) == "2026-12-06T12:00:00Z")
        #expect(RFC3339.string(Self.monday.start) == "2026-12-07T07:00:20Z")
        let receiver = try SMTPReceiver()
        let first = try MailAlertTests.started(receiver, clock: Self.sunday)
        let inspector = try await Session.inspector(first)
        let supervisor = try await Session.supervisor(first)
        let approved = try await Self.synced(inspector, Reports.lobby())
        _ = try await Self.synced(inspector, Reports.lobby())
        let decided = try await Self.patiently {
            try await supervisor.post("/reports/\(approved)/review", ["decision": "approve", "revision": 1])
        }
        #expect(decided.status == 200, "\(decided.message)")
        for (title, hidden) in [("Staff rota for the night shift", true), ("Clean the entrance mats", false)] {
            let made = try await Self.patiently {
                try await supervisor.post(
                    "/actions",
                    [
                        "id": .string(UUID().uuidString.lowercased()), "facility_id": "F-100", "title": .string(title),
                        "internal": .bool(hidden),
                    ])
            }
            #expect(made.status == 201, "\(made.message)")
        }
        let database = first.databasePath
        _ = first.stop()
        #expect(try receiver.messages().isEmpty, "nothing is due on Sunday")

        let instances = try (0..<3).map { _ in
            try ServerProcess(MailAlertTests.mailArguments(receiver), database: database, clock: Self.monday)
        }
        defer { for instance in instances { _ = instance.stop() } }
        _ = try receiver.waitForMessages(count: 2, timeout: 60)
        try await Task.sleep(for: .seconds(3))
        let all = try receiver.messages()
        #expect(MailAlertTests.kinds(all, to: "supervisor@example.org") == ["digest-daily"])
        #expect(MailAlertTests.kinds(all, to: "clara@example.org") == ["digest-weekly"])
        #expect(all.count == 2, "\(all.map { "\($0.rcptTos) \($0.subject ?? "")" })")

        let daily = try #require(all.first { $0.rcptTos == ["supervisor@example.org"] })
        #expect(daily.subject == "Daily digest: Sunday 6 December 2026")
        let staffText = daily.parts.first?.text ?? ""
        #expect(staffText.contains("2 inspections"), "\(staffText)")
        #expect(staffText.contains("actions opened 2"))

        let weekly = try #require(all.first { $0.rcptTos == ["clara@example.org"] })
        #expect(weekly.parseError == nil && weekly.defects.isEmpty)
        #expect(weekly.subject == "Weekly digest: the week of 30 November 2026")
        #expect(weekly.contentType == "multipart/mixed")
        let clientText = weekly.parts.first?.text ?? ""
        #expect(clientText.contains("1 inspection;") || clientText.contains("1 inspection,"), "\(clientText)")
        #expect(clientText.contains("actions opened 1"), "\(clientText)")
        #expect(!clientText.contains("rota") && !(weekly.parts.dropFirst().first?.text ?? "").contains("rota"))
        let pdf = try #require(weekly.parts.first { $0.contentType == "application/pdf" })
        #expect(pdf.filename == "summary-F-100-W2026-11-30.pdf")
        #expect((pdf.size ?? 0) > 1000)
    }
}
