import Foundation
import Models
import Testing
import TestSupport

/// Contract 1.1's exports on the reference server (both stores: the server
/// suite runs again on PostgreSQL): `GET /exports/reports` as JSON Lines and
/// CSV, the `change` cursor, and `jqc-server export` for operators. Each test
/// has a server of its own, so the reports it counts are its own.
@Suite("Exports (contract 1.1)", .timeLimit(.minutes(3)))
struct ExportContractTests {
    /// One export: its report lines and its end line.
    struct Export {
        var reports: [JSONValue]
        var end: JSONValue
        var status: Int
        var contentType: String

        var serverIDs: [String] { reports.compactMap { $0["server_id"]?.stringValue } }
    }

    static func export(_ session: Session, _ query: String = "") async throws -> Export {
        let response = try await session.get("/exports/reports" + (query.isEmpty ? "" : "?" + query))
        try #require(response.status == 200, "export ?\(query): \(response.status) \(response.message)")
        let lines = String(decoding: response.body, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "a JSON Lines export ends with a line feed")
        let values = try lines.dropLast().map { try JSONValue.parse(String($0)) }
        let end = try #require(values.last)
        #expect(end["end"] == true, "the last line is the end line")
        return Export(
            reports: Array(values.dropLast()), end: end, status: response.status,
            contentType: response.header("Content-Type") ?? "")
    }

    static func accepted(_ session: Session, _ report: JSONValue) async throws -> String {
        let result = try await session.syncOne(report)
        try #require(result["status"] == "ACCEPTED", "\(result)")
        return try #require(result["server_id"]?.stringValue)
    }

    @Test("an incremental pull returns exactly the new, amended and reviewed reports, each once, and then nothing")
    func incrementalPull() async throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        let ids = [UUID(), UUID(), UUID()]
        var serverIDs: [String] = []
        for id in ids { serverIDs.append(try await Self.accepted(inspector, Reports.lobby(localID: id))) }

        let first = try await Self.export(supervisor)
        #expect(first.contentType.hasPrefix("application/x-ndjson"))
        #expect(first.serverIDs == serverIDs, "every report once, in the order they changed")
        #expect(first.end["count"] == 3)
        let cursor = try #require(first.end["change"]?.stringValue)
        #expect(first.reports.last?["change"]?.stringValue == cursor, "the end's change is the last report's")
        let line = try #require(first.reports.first)
        // The shape of GET /reports/{id}, plus review_state, change and template_version.
        let single = try await supervisor.get("/reports/\(serverIDs[0])").data["report"] ?? .null
        for key in [
            "local_id", "server_id", "template_id", "facility_id", "area_id", "payload", "issues", "revision",
            "completed_at", "photos", "review",
        ] {
            #expect(line[key] == single[key], "\(key) as GET /reports/{id} shows it")
        }
        #expect(line["review_state"] == "awaiting_review")
        #expect(line["template_version"] == 1)
        #expect(line["change"] == single["review"]?["change"])

        // Amend the first, approve the second, add a fourth; the third is untouched.
        _ = try await Self.accepted(
            inspector,
            Reports.lobby(
                localID: ids[0], serverID: serverIDs[0], baseRevision: 1,
                answers: ["glass": 5]))
        let approved = try await supervisor.post(
            "/reports/\(serverIDs[1])/review", ["decision": "approve", "revision": 1])
        #expect(approved.status == 200)
        let fourth = try await Self.accepted(inspector, Reports.lobby())

        let second = try await Self.export(supervisor, "since=\(cursor)")
        #expect(second.serverIDs == [serverIDs[0], serverIDs[1], fourth])
        #expect(second.reports[0]["revision"] == 2)
        #expect(second.reports[0]["payload"]?["answers"]?["glass"] == 5)
        #expect(second.reports[1]["review_state"] == "approved")
        #expect(second.reports[1]["review"]?["decided_by"]?["display_name"] == "Sam Supervisor")
        #expect(second.end["count"] == 3)
        let all = Set((first.reports + second.reports).compactMap { $0["change"]?.stringValue })
        #expect(all.count == 6, "no change is reported twice")

        // Nothing changed since: nothing, and the same cursor to go on from.
        let next = try #require(second.end["change"]?.stringValue)
        let third = try await Self.export(supervisor, "since=\(next)")
        #expect(third.reports.isEmpty)
        #expect(third.end["change"]?.stringValue == next)

        // Filters narrow the export; a report that no longer matches is not in it.
        let approvedOnly = try await Self.export(supervisor, "review_state=approved")
        #expect(approvedOnly.serverIDs == [serverIDs[1]])
        #expect(try await Self.export(supervisor, "facility_id=F-200").reports.isEmpty)

        // A cursor of other data (another generation) is refused as the reviews feed refuses it.
        let foreign = try await supervisor.get("/exports/reports?since=another-generation.3")
        #expect(foreign.status == 400)
        #expect(foreign.code == "CURSOR_INVALID")
    }

    @Test("inspectors may not export; a bad format, state or cursor, or CSV without a template, is 400 before any byte")
    func refusals() async throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        let refused = try await inspector.get("/exports/reports")
        #expect(refused.status == 403)
        #expect(refused.code == "FORBIDDEN")
        #expect(try await HTTPTestClient().send("GET", server.url("/exports/reports")).status == 401)
        for query in ["format=xml", "review_state=maybe", "format=csv", "since=nonsense"] {
            let response = try await supervisor.get("/exports/reports?\(query)")
            #expect(response.status == 400, "?\(query)")
            #expect(response.json["ok"] == false, "?\(query): an error envelope, not a stream")
        }
        let unknown = try await supervisor.get("/exports/reports?format=csv&template_id=no-such-template")
        #expect(unknown.status == 404)
    }

    /// A template published from a file with `jqc-server admin publish-template`.
    static func publish(_ server: ServerProcess, _ fields: String) throws {
        let directory = TemporaryDirectory()
        let file = directory.path("audit.json")
        let template = #"{"id": "audit", "name": "Audit", "version": 1, "form_schema": {"fields": [\#(fields)]}}"#
        try Data(template.utf8).write(to: URL(fileURLWithPath: file))
        let outcome = try Programs.run("jqc-server", ["admin", "--db", server.databasePath, "publish-template", file])
        try #require(outcome.status == 0, "publish: \(outcome.stderr)")
    }

    static func audit(_ answers: JSONValue) -> JSONValue {
        [
            "local_id": .string(UUID().uuidString.lowercased()), "template_id": "audit", "facility_id": "F-100",
            "payload": ["answers": answers, "score": .null, "follow_up_required": false], "issues": [],
        ]
    }

    @Test(
        "the CSV of a template with three versions has the contract's columns, then the union of their fields, newest first"
    )
    func csvOfThreeVersions() async throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        // Each report is sent in a second after its version was published and before the next is
        // (the server's clock has whole seconds), so each was judged against the version it names.
        try Self.publish(
            server, #"{"id": "a", "type": "text", "label": "A"}, {"id": "b", "type": "number", "label": "B"}"#)
        let first = try await Self.accepted(inspector, Self.audit(["a": "=SUM(A1:A9)", "b": -2]))
        try await Task.sleep(for: .milliseconds(1100))
        try Self.publish(
            server, #"{"id": "b", "type": "number", "label": "B"}, {"id": "c", "type": "checkbox", "label": "C"}"#)
        let second = try await Self.accepted(inspector, Self.audit(["b": 3.5, "c": true]))
        try await Task.sleep(for: .milliseconds(1100))
        try Self.publish(
            server,
            #"{"id": "d", "type": "text", "label": "D"}, {"id": "b", "type": "number", "label": "B"}, {"id": "e", "type": "checkbox_group", "label": "E", "options": ["x", "y, z"]}"#
        )
        let third = try await Self.accepted(
            inspector, Self.audit(["d": "@home, \"quoted\"", "b": 1, "e": ["x", "y, z"]]))
        // A report of another template is not in this template's table.
        _ = try await Self.accepted(inspector, Reports.lobby())

        let response = try await supervisor.get("/exports/reports?format=csv&template_id=audit")
        #expect(response.status == 200)
        #expect(response.header("Content-Type")?.hasPrefix("text/csv") == true)
        let text = String(decoding: response.body, as: UTF8.self)
        let rows = text.components(separatedBy: "\r\n")
        #expect(rows.last == "", "every record ends with CRLF")
        #expect(
            rows[0]
                == "server_id,local_id,template_id,template_version,facility_id,area_id,inspector,completed_at,score,"
                + "review_state,revision,change,field:d,field:b,field:e,field:c,field:a")
        #expect(rows.count == 5, "a header and three rows: \(text)")
        func cells(_ row: String) -> [String] { CSVCells.parse(row) }
        let one = cells(rows[1]), two = cells(rows[2]), three = cells(rows[3])
        #expect([one[0], two[0], three[0]] == [first, second, third])
        #expect([one[3], two[3], three[3]] == ["1", "2", "3"], "each report names the version it was judged against")
        #expect(one[6] == "inspector")
        #expect(one[9] == "awaiting_review" && one[10] == "1")
        // Answers as text: a formula guarded, a negative number left a number, absent empty.
        #expect(Array(one[12...]) == ["", "-2", "", "", "'=SUM(A1:A9)"])
        #expect(Array(two[12...]) == ["", "3.5", "", "true", ""])
        #expect(Array(three[12...]) == ["'@home, \"quoted\"", "1", "x; y, z", "", ""])
    }

    @Test(
        "jqc-server export writes the route's JSON Lines and CSV, and a zip whose photos and lines Python's zipfile reads back"
    )
    func operatorExport() async throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        let serverID = try await Self.accepted(inspector, Reports.lobby())
        _ = try await Self.accepted(inspector, Reports.lobby(answers: ["notes": "+1 for the new mats"]))
        let photo = PhotoContractTests.jpeg(30_000)
        let photoID = UUID().uuidString.lowercased()
        let upload = try await inspector.client.upload(
            server.url("/reports/\(serverID)/photos"),
            fields: [
                ("local_id", photoID), ("field_id", "notes"),
                ("sha256", try PhotoContractTests.sha256(photo)),
            ],
            file: photo, token: inspector.accessToken)
        #expect(upload.status == 201)
        let folder = TemporaryDirectory()

        let jsonl = try Programs.run(
            "jqc-server", ["export", "--db", server.databasePath, "--format", "jsonl", "-o", folder.path("r.jsonl")])
        #expect(jsonl.status == 0, "\(jsonl.stderr)")
        let route = try await supervisor.get("/exports/reports")
        let written = try String(contentsOfFile: folder.path("r.jsonl"), encoding: .utf8)
        #expect(written == String(decoding: route.body, as: UTF8.self), "the same lines as the route")
        let end = try JSONValue.parse(String(written.split(separator: "\n").last ?? ""))
        #expect(
            jsonl.stdout.contains("exported 2 reports")
                && jsonl.stdout.contains("--since \(end["change"]?.stringValue ?? "?")"))
        #expect(jsonl.stderr.isEmpty, "no progress bar when stderr is not a terminal")

        let csv = try Programs.run(
            "jqc-server",
            [
                "export", "--db", server.databasePath, "--format", "csv", "--template", "lobby-walk",
                "-o", folder.path("r.csv"),
            ])
        #expect(csv.status == 0, "\(csv.stderr)")
        let table = try String(contentsOfFile: folder.path("r.csv"), encoding: .utf8)
        #expect(
            table
                == String(
                    decoding: try await supervisor.get("/exports/reports?format=csv&template_id=lobby-walk").body,
                    as: UTF8.self))
        #expect(table.contains(",'+1 for the new mats"), "the formula guard, as on the route")
        let noTemplate = try Programs.run(
            "jqc-server", ["export", "--db", server.databasePath, "--format", "csv", "-o", folder.path("x.csv")])
        #expect(noTemplate.status == 2)
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.csv")))

        let zip = try Programs.run(
            "jqc-server", ["export", "--db", server.databasePath, "--format", "zip", "-o", folder.path("r.zip")])
        #expect(zip.status == 0, "\(zip.stderr)")
        #expect(zip.stdout.contains("2 reports and 1 photo"))
        try photo.write(to: URL(fileURLWithPath: folder.path("photo.jpg")))
        let check = try Programs.runShell(
            """
            python3 -c '
            import zipfile, sys
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            print(sorted(z.namelist()))
            print(z.read(sys.argv[2]) == open(sys.argv[3], "rb").read())
            print(len(z.read("reports.jsonl").splitlines()))
            ' \(folder.path("r.zip")) photos/\(serverID)/\(photoID).jpg \(folder.path("photo.jpg"))
            """)
        #expect(check.status == 0, "\(check.stderr)")
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "['photos/\(serverID)/\(photoID).jpg', 'reports.jsonl']")
        #expect(lines.dropFirst().first == "True", "the photo's bytes, whole")
        #expect(lines.last == "3", "two reports and the end line")
    }
}

/// The cells of one CSV record (RFC 4180 quoting), for tests.
enum CSVCells {
    static func parse(_ record: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var quoted = false
        var characters = Array(record)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" {
                        current.append("\"")
                        characters.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    current.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                cells.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        cells.append(current)
        return cells
    }
}
