import Foundation
import Models
import Testing
import TestSupport

/// The site team's field types end to end: a template using all four is
/// imported into a device and a server, answered through the real `jqc` as a
/// person types, completed, synced, and scored the same on both sides.
@Suite("Site field types from device to server")
struct SiteFieldTypesJourneyTests {
    static let templates = #"""
        {"templates": [{"id": "site-101", "name": "Kitchen and store checks", "version": 1, "form_schema": {"fields": [
          {"id": 1, "type": "rating", "label": "Floors", "required": true},
          {"id": 2, "type": "geopoint", "label": "Where the fridge stands", "required": true, "max_accuracy_m": 25},
          {"id": 3, "type": "barcode", "label": "Fridge asset tag", "required": true, "pattern": "AT-[0-9]{5}"},
          {"id": 4, "type": "temperature", "label": "Fridge temperature", "required": true, "critical": true,
           "unit": "C", "allowed_min": 0, "allowed_max": 5},
          {"id": 5, "type": "duration", "label": "Deep clean took", "required": true, "max_seconds": 14400}
        ]}}]}
        """#

    @Test(
        "an inspection using geopoint, barcode, temperature and duration completes on the device, syncs, and the server scores it the same"
    )
    func journey() async throws {
        let server = try ServerProcess(["--demo"]) { db in
            let file = db + ".site-templates.json"
            try Data(Self.templates.utf8).write(to: URL(fileURLWithPath: file))
            let imported = try Programs.run("jqc-server", ["admin", "--db", db, "import-templates", file])
            guard imported.status == 0 else { throw ServerLaunchError(message: imported.stderr) }
        }
        let profile = try DemoProfile()
        let file = profile.path("site-templates.json")
        try Data(Self.templates.utf8).write(to: URL(fileURLWithPath: file))
        let imported = try profile.jqc(["templates", "import", file])
        try #require(imported.status == 0, "templates import: \(imported.stderr)")
        #expect(!imported.stdout.contains("Note:"), "jqc knows every type: \(imported.stdout)")
        let login = try profile.jqc(
            ["login", "--server", server.baseURL, "--username", "inspector", "--password-stdin"],
            stdin: "inspector-pass\n")
        try #require(login.status == 0, "login: \(login.stderr)")

        let id = try profile.start(["--template", "site-101", "--facility", "F-100"])
        let typed = [("1", "4"), ("2", "51.5072, -0.1276 ±5m"), ("3", "AT-00042"), ("4", "40F"), ("5", "1h30m")]
        for (field, input) in typed {
            let outcome = try profile.jqc(["answer", id, field, input])
            try #require(outcome.status == 0, "answering \(field) with \(input): \(outcome.stderr)")
        }
        let refused = try profile.jqc(["answer", id, "3", "AT-42"])
        #expect(refused.status == 4, "the barcode pattern is enforced by jqc")

        let answers = try profile.show(id)["answers"]
        let expected: [String: JSONValue] = [
            "1": 4,
            "2": ["lat": 51.5072, "lon": -0.1276, "accuracy_m": 5],
            "3": "AT-00042",
            "4": ["value": 4.4, "unit": "C"],
            "5": 5400,
        ]
        for (field, value) in expected {
            #expect(
                Self.answer(answers, field) == value,
                "field \(field): \(String(describing: Self.answer(answers, field)))")
        }

        let (status, completed) = try profile.document(["complete", id])
        try #require(status == 0, "complete: \(completed)")
        // Floors 4/5 = 0.8; the fridge at 4.4 °C is inside 0..5 and scores 1; the other three are not scored.
        let deviceScore = try #require(completed["score"]?.numberValue)
        #expect(abs(deviceScore - 0.9) < 1e-9)
        #expect(completed["score_breakdown"]?["critical_failures"] == [])

        let sync = try profile.jqc(["sync"])
        #expect(sync.status == 0, "sync: \(sync.stdout) \(sync.stderr)")
        let synced = try profile.show(id)
        #expect(synced["state"] == "SYNCED")
        let serverID = try #require(synced["server_id"]?.stringValue)

        let session = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"),
            json: ["username": "inspector", "password": "inspector-pass"])
        let token = try #require(session.data["access_token"]?.stringValue)
        let remote = try await HTTPTestClient().send("GET", server.url("/reports/\(serverID)"), token: token)
        for (field, value) in expected {
            #expect(
                remote.data["report"]?["payload"]?["answers"]?[field] == value,
                "the server keeps field \(field) as sent")
        }
        let history = try await HTTPTestClient().send(
            "GET", server.url("/inspections?status=completed&limit=30&offset=0"), token: token)
        let item = history.data["items"]?.arrayValue?.first { $0["server_id"]?.stringValue == serverID }
        let serverScore = try #require(item?["score"]?.numberValue, "the server scored the report: \(history.data)")
        #expect(abs(serverScore - deviceScore) < 1e-9, "server \(serverScore), device \(deviceScore)")
    }

    @Test("a fridge out of range fails the critical field, on the device and on the server alike")
    func outOfRange() async throws {
        let server = try ServerProcess(["--demo"]) { db in
            let file = db + ".site-templates.json"
            try Data(Self.templates.utf8).write(to: URL(fileURLWithPath: file))
            let imported = try Programs.run("jqc-server", ["admin", "--db", db, "import-templates", file])
            guard imported.status == 0 else { throw ServerLaunchError(message: imported.stderr) }
        }
        let profile = try DemoProfile()
        let file = profile.path("site-templates.json")
        try Data(Self.templates.utf8).write(to: URL(fileURLWithPath: file))
        try #require(try profile.jqc(["templates", "import", file]).status == 0)
        try #require(
            try profile.jqc(
                ["login", "--server", server.baseURL, "--username", "inspector", "--password-stdin"],
                stdin: "inspector-pass\n"
            ).status == 0)
        let id = try profile.start(["--template", "site-101", "--facility", "F-100"])
        for (field, input) in [
            ("1", "5"), ("2", "51.5, -0.12 ±3m"), ("3", "AT-00001"), ("4", "9.5 °C"), ("5", "01:30:00"),
        ] {
            let outcome = try profile.jqc(["answer", id, field, input])
            try #require(outcome.status == 0, "answering \(field) with \(input): \(outcome.stderr)")
        }
        let (status, completed) = try profile.document(["complete", id])
        try #require(status == 0, "complete: \(completed)")
        let deviceScore = try #require(completed["score"]?.numberValue)
        #expect(try profile.jqc(["sync"]).status == 0)
        let serverID = try #require(try profile.show(id)["server_id"]?.stringValue)
        let session = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"),
            json: ["username": "inspector", "password": "inspector-pass"])
        let token = try #require(session.data["access_token"]?.stringValue)
        let history = try await HTTPTestClient().send(
            "GET", server.url("/inspections?status=completed&limit=30&offset=0"), token: token)
        let item = history.data["items"]?.arrayValue?.first { $0["server_id"]?.stringValue == serverID }
        let serverScore = try #require(item?["score"]?.numberValue)
        #expect(abs(serverScore - deviceScore) < 1e-9, "server \(serverScore), device \(deviceScore)")
        // Floors 5/5 = 1, the fridge at 9.5 °C is outside 0..5 and scores 0: (1 + 0) / 2, and the critical field fails.
        #expect(abs(deviceScore - 0.5) < 1e-9)
        #expect(completed["score_breakdown"]?["critical_failures"] == ["4"])
    }

    /// An answer from `show --json`, whichever shape it lists answers in.
    static func answer(_ answers: JSONValue?, _ field: String) -> JSONValue? {
        if let list = answers?.arrayValue {
            return list.first { $0["field_id"]?.stringValue == field || $0["id"]?.stringValue == field }?["answer"]
        }
        return answers?[field]
    }
}
