import Foundation
import Models
import Testing
import TestSupport

/// The export of corrective actions (both stores: the server suite runs
/// again on PostgreSQL): `GET /exports/actions` as JSON Lines and CSV with
/// the `change` cursor, and `jqc-server export --what actions`. Each test
/// has a server of its own, so the actions it counts are its own.
@Suite("Exports of actions", .timeLimit(.minutes(3)))
struct ActionExportTests {
    /// The action lines of an export and its end line.
    static func export(_ session: Session, _ query: String = "") async throws -> (lines: [JSONValue], end: JSONValue) {
        let response = try await session.get("/exports/actions" + (query.isEmpty ? "" : "?" + query))
        try #require(response.status == 200, "export ?\(query): \(response.status) \(response.message)")
        #expect(response.header("Content-Type")?.hasPrefix("application/x-ndjson") == true)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text.hasSuffix("\n"), "a JSON Lines export ends with a line feed")
        let values = try text.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        let end = try #require(values.last)
        #expect(end["end"] == true, "the last line is the end line")
        return (Array(values.dropLast()), end)
    }

    /// A supervisor's action at `facility`; its id.
    static func made(_ supervisor: Session, _ title: String, facility: String = "F-100") async throws -> String {
        let response = try await supervisor.post(
            "/actions",
            [
                "id": .string(UUID().uuidString.lowercased()), "facility_id": .string(facility),
                "title": .string(title), "severity": "high", "assignee": "inspector",
            ])
        try #require(response.status == 201, "\(response.status) \(response.message)")
        return try #require(response.data["action"]?["id"]?.stringValue)
    }

    @Test(
        "every action once in order of change, as GET /actions/{id} has it; from the end's change only what moved since; a facility filter"
    )
    func incremental() async throws {
        let server = try ServerProcess(["--demo"])
        let supervisor = try await Session.supervisor(server)
        let first = try await Self.made(supervisor, "Refill soap dispensers")
        let second = try await Self.made(supervisor, "Mop the stairwell", facility: "F-200")
        let third = try await Self.made(supervisor, "Replace the mat")

        let all = try await Self.export(supervisor)
        #expect(all.lines.compactMap { $0["id"]?.stringValue } == [first, second, third])
        #expect(all.end["count"] == 3)
        let single = try await supervisor.get("/actions/\(first)").data["action"]
        #expect(all.lines.first == single, "a line is the action as GET /actions/{id} answers it")

        let moved = try await ActionContractTests.update(supervisor, first, ["comment": "Bought more soap"])
        #expect(moved.status == 200)
        let cursor = try #require(all.end["change"]?.stringValue)
        let since = try await Self.export(supervisor, "since=\(cursor)")
        #expect(since.lines.compactMap { $0["id"]?.stringValue } == [first], "only what moved since")
        #expect(since.lines.first?["updates"]?.arrayValue?.first?["comment"] == "Bought more soap")
        let later = try await Self.export(supervisor, "since=\(since.end["change"]?.stringValue ?? "")")
        #expect(later.lines.isEmpty && later.end["count"] == 0)

        let site = try await Self.export(supervisor, "facility_id=F-200")
        #expect(site.lines.compactMap { $0["id"]?.stringValue } == [second])
    }

    @Test(
        "CSV: one row an action with its thread counted and the formula guard; inspectors 403; an unknown parameter or another server's change 400"
    )
    func csvAndRefusals() async throws {
        let server = try ServerProcess(["--demo"])
        let supervisor = try await Session.supervisor(server)
        let id = try await Self.made(supervisor, "=HYPERLINK(\"x\")")
        _ = try await ActionContractTests.update(supervisor, id, ["state": "in_progress"])
        let response = try await supervisor.get("/exports/actions?format=csv")
        #expect(response.status == 200 && response.header("Content-Type")?.hasPrefix("text/csv") == true)
        let rows = String(decoding: response.body, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(
            rows.first
                == "id,facility_id,area_id,title,description,severity,state,internal,assignee,due_at,source_kind,"
                + "report_server_id,issue_local_id,created_by,created_at,updated_at,version,updates,change")
        #expect(rows.count == 3 && rows[2].isEmpty, "a header, one row, the last line ended")
        #expect(rows[1].hasPrefix("\(id),F-100,,\"'=HYPERLINK(\"\"x\"\")\",,high,in_progress,false,inspector,"))
        #expect(rows[1].contains(",supervisor,") && rows[1].contains(",2,1,"), "created by, version 2, one update")

        let inspector = try await Session.inspector(server)
        let forbidden = try await inspector.get("/exports/actions")
        #expect(forbidden.status == 403 && forbidden.code == "FORBIDDEN")
        let unknown = try await supervisor.get("/exports/actions?facilty_id=F-100")
        #expect(unknown.status == 400 && unknown.message.contains("facilty_id"), "a mistyped filter never exports all")
        let foreign = try await supervisor.get("/exports/actions?since=not-a-change")
        #expect(foreign.status == 400 && foreign.code == "CURSOR_INVALID")
    }

    @Test("jqc-server export --what actions writes the route's lines; a zip of actions is refused and writes nothing")
    func command() async throws {
        let server = try ServerProcess(["--demo"])
        let supervisor = try await Session.supervisor(server)
        _ = try await Self.made(supervisor, "Refill soap dispensers")
        _ = try await Self.made(supervisor, "Mop the stairwell", facility: "F-200")
        let folder = TemporaryDirectory()
        let jsonl = try Programs.run(
            "jqc-server",
            ["export", "--db", server.databasePath, "--what", "actions", "--format", "jsonl", "-o", folder.path("a")])
        #expect(jsonl.status == 0, "\(jsonl.stderr)")
        let written = try String(contentsOfFile: folder.path("a"), encoding: .utf8)
        let route = try await supervisor.get("/exports/actions")
        #expect(written == String(decoding: route.body, as: UTF8.self), "the same lines as the route")
        #expect(jsonl.stdout.contains("exported 2 actions") && jsonl.stdout.contains("--since "))

        let site = try Programs.run(
            "jqc-server",
            [
                "export", "--db", server.databasePath, "--what", "actions", "--format", "csv", "--facility", "F-200",
                "-o", folder.path("a.csv"),
            ])
        #expect(site.status == 0 && site.stdout.contains("exported 1 action "), "\(site.stdout)\(site.stderr)")

        let zip = try Programs.run(
            "jqc-server",
            ["export", "--db", server.databasePath, "--what", "actions", "--format", "zip", "-o", folder.path("a.zip")])
        #expect(zip.status == 2 && zip.stderr.contains("jsonl or csv"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("a.zip")))
    }
}
