import Foundation
import Models
import Testing
import TestSupport

/// The issues export (`GET /exports/issues`, `jqc-server export --what
/// issues`) on both stores: one CSV row an issue, with its report, site,
/// area and inspector, and the state of the action it became.
@Suite("The issues export: one row an issue, with its action's state", .timeLimit(.minutes(3)))
struct ExportIssuesTests {
    @Test(
        "a row an issue with names and the action's state; facility_id narrows it; Python's csv reads descriptions with commas and line breaks whole"
    )
    func issueRows() async throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        let (tile, smudge, bin) = (
            UUID().uuidString.lowercased(), UUID().uuidString.lowercased(), UUID().uuidString.lowercased()
        )
        let lobby = try await ExportContractTests.accepted(
            inspector,
            ActionContractTests.report(
                [("Cracked tile, by the sinks\nsharp edge", "high"), ("=cmd|' /C calc'!A0", "low")],
                ids: [tile, smudge]))
        let waiting = try await ExportContractTests.accepted(
            inspector,
            ActionContractTests.report([("Bin overflowing", "critical")], ids: [bin])
                .setting("facility_id", "F-200").setting("area_id", "A-201"))
        _ = try await ExportContractTests.accepted(inspector, Reports.lobby())
        // The high and the critical issue became actions (the default threshold is high); one is started.
        let actions = try await ActionContractTests.feed(supervisor)
        func action(_ issue: String) -> String {
            actions.first { $0["source"]?["issue_local_id"]?.stringValue == issue }?["id"]?.stringValue ?? "?"
        }
        let started = try await ActionContractTests.update(supervisor, action(bin), ["state": "in_progress"])
        try #require(started.status == 200, "\(started.message)")

        let folder = TemporaryDirectory()
        let response = try await supervisor.get("/exports/issues")
        #expect(response.status == 200 && response.header("Content-Type")?.hasPrefix("text/csv") == true)
        try response.body.write(to: URL(fileURLWithPath: folder.path("issues.csv")))
        let records = try ExportLabelsTests.pythonCSV(folder.path("issues.csv"))
        #expect(
            records.first
                == [
                    "report_server_id", "issue_local_id", "completed_at", "template_id", "site", "site_name", "area",
                    "area_name", "inspector", "inspector_name", "severity", "description", "photos", "action_id",
                    "action_state",
                ])
        let rows = Array(records.dropFirst())
        #expect(rows.count == 3, "three issues, none for the report without: \(rows)")
        func cells(_ row: [String]) -> [String] { [row[0], row[1]] + Array(row[3...]) }
        #expect(
            rows.map(cells) == [
                [
                    lobby, tile, "lobby-walk", "F-100", "Harbourview Office Tower", "A-102", "Main lobby", "inspector",
                    "Ivy Inspector", "high", "Cracked tile, by the sinks\nsharp edge", "0", action(tile), "open",
                ],
                [
                    lobby, smudge, "lobby-walk", "F-100", "Harbourview Office Tower", "A-102", "Main lobby",
                    "inspector", "Ivy Inspector", "low", "'=cmd|' /C calc'!A0", "0", "", "",
                ],
                [
                    waiting, bin, "lobby-walk", "F-200", "Riverside Medical Centre", "A-201",
                    "Outpatient waiting room", "inspector", "Ivy Inspector", "critical", "Bin overflowing", "0",
                    action(bin), "in_progress",
                ],
            ])
        #expect(rows.allSatisfy { RFC3339.date($0[2]) != nil }, "completed_at is the report's")

        let narrowed = try await supervisor.get("/exports/issues?facility_id=F-200")
        let lines = String(decoding: narrowed.body, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.count == 3 && lines[1].hasPrefix("\(waiting),\(bin),"), "a header, one row, the last CRLF")
    }

    @Test(
        "jqc-server export --what issues writes the route's CSV; jsonl, labels, another format or an inspector are refused"
    )
    func issuesRefusalsAndCommandLine() async throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        _ = try await ExportContractTests.accepted(
            inspector, ActionContractTests.report([("Door sticks", "medium"), ("Light out", "high")]))
        let folder = TemporaryDirectory()
        let written = try Programs.run(
            "jqc-server",
            [
                "export", "--db", server.databasePath, "--what", "issues", "--format", "csv", "-o",
                folder.path("issues.csv"),
            ])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(written.stdout.hasPrefix("exported 2 issues of 1 report to "), "\(written.stdout)")
        let file = try String(contentsOfFile: folder.path("issues.csv"), encoding: .utf8)
        #expect(file == String(decoding: try await supervisor.get("/exports/issues?format=csv").body, as: UTF8.self))
        let underReports = try await supervisor.get("/exports/reports?format=issues")
        #expect(
            underReports.status == 200 && String(decoding: underReports.body, as: UTF8.self) == file, "format=issues")

        let jsonl = try Programs.run(
            "jqc-server",
            [
                "export", "--db", server.databasePath, "--what", "issues", "--format", "jsonl", "-o",
                folder.path("issues.jsonl"),
            ])
        #expect(jsonl.status == 2, "\(jsonl.stderr)")
        for query in ["format=jsonl", "labels=true", "review_state=maybe"] {
            let refused = try await supervisor.get("/exports/issues?\(query)")
            #expect(refused.status == 400 && refused.json["ok"] == false, "?\(query)")
        }
        #expect(try await inspector.get("/exports/issues").status == 403)
    }
}
