import Foundation
import Models
import Testing
import TestSupport

/// The CSV a manager reads (`labels=true`, `jqc-server export --labels`) on
/// both stores, read back by Python's `csv` module as a spreadsheet would
/// read it.
@Suite("Exports a manager can read: labels, names and percents", .timeLimit(.minutes(3)))
struct ExportLabelsTests {
    /// A section (no column), two fields labelled "Floor", one labelled as a
    /// report column, a label that is a formula, three weighted pass/fail
    /// checks (passing 0.1 and 0.7 of 1.0 is 0.7999999999999999 in binary
    /// arithmetic) and a field of photos.
    static let template = #"""
        {"id": "audit", "name": "Audit", "version": 1, "pass_threshold": 0.75, "form_schema": {"fields": [
            {"id": "intro", "type": "section", "label": "Entrance"},
            {"id": "floor_1", "type": "text", "label": "Floor"},
            {"id": "floor_2", "type": "text", "label": "Floor"},
            {"id": "where", "type": "text", "label": "site"},
            {"id": "formula", "type": "number", "label": "=HYPERLINK(\"http://x\")"},
            {"id": "p1", "type": "pass_fail", "label": "Doors", "weight": 0.1},
            {"id": "p2", "type": "pass_fail", "label": "Glass", "weight": 0.7},
            {"id": "p3", "type": "pass_fail", "label": "Mats", "weight": 0.2},
            {"id": "pics", "type": "image", "label": "Photos"}
        ]}}
        """#

    static func server() throws -> ServerProcess { try ExportNumberTests.server(publishing: template) }

    static func audit(_ answers: JSONValue) -> JSONValue { ExportNumberTests.report("audit", answers) }

    /// The records of a CSV file as Python's `csv` module reads them (a real `python3` process).
    static func pythonCSV(_ path: String) throws -> [[String]] {
        let read = try Programs.runShell(
            """
            python3 -c '
            import csv, json, sys
            with open(sys.argv[1], newline="", encoding="utf-8") as f:
                print(json.dumps(list(csv.reader(f))))
            ' \(path)
            """)
        try #require(read.status == 0, "python3: \(read.stderr)")
        let records = try JSONValue.parse(read.stdout).arrayValue ?? []
        return records.map { ($0.arrayValue ?? []).map { $0.stringValue ?? "" } }
    }

    /// The body of a successful GET, written to `file` for Python to read.
    static func download(_ session: Session, _ path: String, to file: String) async throws -> String {
        let response = try await session.get(path)
        try #require(response.status == 200, "\(path): \(response.status) \(response.message)")
        try response.body.write(to: URL(fileURLWithPath: file))
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test(
        "labels=true: Python's csv reads the labels as the header (unique, guarded, sections left out) and one row a report with names, percent, passed and deficiencies"
    )
    func labelledCSV() async throws {
        let server = try Self.server()
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        let photos = [UUID().uuidString.lowercased(), UUID().uuidString.lowercased()]
        let first = try await ExportContractTests.accepted(
            inspector,
            Self.audit([
                "floor_1": "wet", "floor_2": "dry, clean", "where": "by the lift", "formula": 3, "p1": "pass",
                "p2": "pass", "p3": "fail", "pics": .array(photos.map(JSONValue.string)),
            ]))
        let second = try await ExportContractTests.accepted(
            inspector, Self.audit(["floor_1": "ok", "p1": "pass", "p2": "pass", "p3": "pass"]))
        let third = try await ExportContractTests.accepted(inspector, Self.audit(["floor_2": "swept"]))
        _ = try await ExportContractTests.accepted(inspector, Reports.lobby())

        let folder = TemporaryDirectory()
        _ = try await Self.download(
            supervisor, "/exports/reports?format=csv&template_id=audit&labels=true", to: folder.path("labels.csv"))
        let records = try Self.pythonCSV(folder.path("labels.csv"))
        #expect(
            records.first
                == [
                    "server_id", "local_id", "template_id", "template_version", "site", "site_name", "area",
                    "area_name", "inspector", "inspector_name", "completed_at", "score_percent", "passed",
                    "deficiencies", "review_state", "revision", "change", "Floor (floor_1)", "Floor (floor_2)",
                    "site (where)", "'=HYPERLINK(\"http://x\")", "Doors", "Glass", "Mats", "Photos",
                ])
        #expect(records.count == 4, "the header and one row a report of the template: \(records)")
        let rows = Array(records.dropFirst())
        #expect(rows.map { $0.first ?? "" } == [first, second, third])
        let one = rows[0]
        #expect(
            Array(one[4...9]) == [
                "F-100", "Harbourview Office Tower", "A-102", "Main lobby", "inspector", "Ivy Inspector",
            ])
        #expect(Array(one[11...13]) == ["80", "true", "1"], "80 percent, passed at 75, Mats deficient")
        #expect(Array(one[17...]) == ["wet", "dry, clean", "by the lift", "3", "pass", "pass", "fail", "2"])
        #expect(Array(rows[1][11...13]) == ["100", "true", "0"])
        #expect(Array(rows[2][11...13]) == ["", "false", "0"], "nothing scoreable answered: no score, not passed")

        // Without labels the CSV is exactly the contract's, sections and all, and its score is 0.8.
        let plain = try await Self.download(
            supervisor, "/exports/reports?format=csv&template_id=audit", to: folder.path("plain.csv"))
        let contract = try Self.pythonCSV(folder.path("plain.csv"))
        #expect(contract.first?.count == 12 + 9 && contract.first?[12] == "field:intro")
        #expect(contract.dropFirst().first?[8] == "0.8", "the score without float noise: \(plain)")
    }

    @Test(
        "jqc-server export --labels writes the route's labelled CSV; --labels without csv, or a bad labels value, is refused"
    )
    func labelsOnTheCommandLine() async throws {
        let server = try Self.server()
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        _ = try await ExportContractTests.accepted(inspector, Self.audit(["floor_1": "=1+2", "p1": "pass"]))
        let folder = TemporaryDirectory()
        let written = try Programs.run(
            "jqc-server",
            [
                "export", "--db", server.databasePath, "--format", "csv", "--template", "audit", "--labels",
                "-o", folder.path("audit.csv"),
            ])
        #expect(written.status == 0, "\(written.stderr)")
        let route = try await supervisor.get("/exports/reports?format=csv&template_id=audit&labels=true")
        let file = try String(contentsOfFile: folder.path("audit.csv"), encoding: .utf8)
        #expect(file == String(decoding: route.body, as: UTF8.self), "the same bytes as the route")
        #expect(file.contains(",'=1+2,"), "an answer guarded as in the contract's CSV")

        let jsonl = try Programs.run(
            "jqc-server",
            ["export", "--db", server.databasePath, "--format", "jsonl", "--labels", "-o", folder.path("x.jsonl")])
        #expect(jsonl.status == 2 && jsonl.stderr.contains("--labels"), "\(jsonl.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.jsonl")))
        for query in ["labels=true", "format=csv&template_id=audit&labels=yes"] {
            let refused = try await supervisor.get("/exports/reports?\(query)")
            #expect(refused.status == 400 && refused.json["ok"] == false, "?\(query)")
        }
    }
}
