import Foundation
import Models
import Storage
import Testing
import TestSupport

/// The demo template `washroom-logic` (conditional section, conditional
/// requirement, calculated answers) through the real `jqc` and a real
/// `jqc-server --demo`: completed along different branches, synced, and
/// scored the same on both sides; a hand-made report that answers a hidden
/// field is refused.
@Suite("Form logic from device to server")
struct FormLogicJourneyTests {
    /// Starts a washroom-logic draft and types `answers` in order; returns its id.
    func draft(_ profile: DemoProfile, _ answers: [(String, String)]) throws -> String {
        let id = try profile.start(["--template", "washroom-logic", "--facility", "F-100"])
        for (field, input) in answers {
            let outcome = try profile.jqc(["answer", id, field, input])
            try #require(outcome.status == 0, "answering \(field) with \(input): \(outcome.stderr)")
        }
        return id
    }

    /// The server's score of a report, from the inspector's history.
    func serverScore(_ server: ServerProcess, serverID: String) async throws -> Double? {
        let session = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"),
            json: ["username": "inspector", "password": "inspector-pass"])
        let token = try #require(session.data["access_token"]?.stringValue)
        let history = try await HTTPTestClient().send(
            "GET", server.url("/inspections?status=completed&limit=100&offset=0"), token: token)
        let item = history.data["items"]?.arrayValue?.first { $0["server_id"]?.stringValue == serverID }
        return item?["score"]?.numberValue
    }

    @Test("four branches complete on the device, sync ACCEPTED, and the server's score equals the device's")
    func branches() async throws {
        let server = try ServerProcess(["--demo"])
        let profile = try DemoProfile.signedIn(to: server.baseURL)

        // Shower present, good tiles: the share of broken fixtures is calculated (1 of 10 = 10%, acceptable).
        let good = try draft(
            profile, [("1", "pass"), ("3", "4"), ("5", "yes"), ("7", "10"), ("8", "1"), ("11", "good")])
        let goodAnswers = try profile.show(good)["answers"]
        #expect(goodAnswers?["9"] == 10, "calculated share: \(String(describing: goodAnswers))")
        #expect(goodAnswers?["10"] == "pass")
        let typedCalculation = try profile.jqc(["answer", good, "9", "12"])
        #expect(typedCalculation.status == 4)
        #expect(typedCalculation.stderr.contains("calculated"), "\(typedCalculation.stderr)")

        // No shower: tiles rated first, then the shower is marked absent, hiding the section;
        // a poor odour makes its source required.
        let noShower = try draft(
            profile, [("1", "pass"), ("3", "1"), ("1", "fail"), ("7", "4"), ("8", "2"), ("11", "Poor")])
        let hidden = try profile.jqc(["answer", noShower, "4", "cracked"])
        #expect(hidden.status == 5, "a hidden field is not answered: \(hidden.stderr)")
        #expect(
            hidden.stderr.contains("hidden by condition") && hidden.stderr.contains("field '1'"), "\(hidden.stderr)")
        #expect(try profile.show(noShower)["answers"]?["3"] == 1, "the hidden answer is kept while a draft")
        let missing = try profile.document(["complete", noShower])
        #expect(missing.status == 4)
        #expect(
            "\(missing.value)".contains("Odour source"), "field 12 is required when the odour is poor: \(missing.value)"
        )
        try #require(try profile.jqc(["answer", noShower, "12", "blocked drain"]).status == 0)

        // Poor tiles need a description; nothing counted leaves the share empty.
        let poorTiles = try draft(profile, [("1", "pass"), ("3", "2"), ("7", "0"), ("8", "0"), ("11", "Acceptable")])
        let needsWhy = try profile.document(["complete", poorTiles])
        #expect(needsWhy.status == 4)
        #expect("\(needsWhy.value)".contains("What is wrong with the tiles?"), "\(needsWhy.value)")
        try #require(try profile.jqc(["answer", poorTiles, "4", "two cracked tiles"]).status == 0)
        #expect(try profile.show(poorTiles)["answers"]?["9"] == nil, "dividing by zero leaves the share unanswered")

        // A share that is not a whole number (1 of 3 = 33.3%) travels as a decimal and is checked as one.
        let third = try draft(profile, [("1", "pass"), ("3", "5"), ("7", "3"), ("8", "1"), ("11", "Good")])
        #expect(try profile.show(third)["answers"]?["9"] == 33.3)

        var deviceScores: [String: Double?] = [:]
        for (id, expected) in [(good, 0.96), (noShower, 0.0), (poorTiles, 0.8), (third, 0.75)] {
            let (status, completed) = try profile.document(["complete", id])
            try #require(status == 0, "complete: \(completed)")
            let score = completed["score"]?.numberValue
            #expect(
                score.map { abs($0 - expected) < 1e-9 } == true,
                "device score \(String(describing: score)), expected \(expected)")
            deviceScores[id] = score
        }
        let completedNoShower = try profile.show(noShower)
        #expect(
            completedNoShower["answers"]?["3"] == .null, "complete drops the hidden field's answer; the key stays, null"
        )
        #expect(completedNoShower["answers"]?["12"] == "blocked drain")
        let store = try LocalStore.open(at: profile.storePath)
        let revisions = try store.revisions(of: try #require(UUID(uuidString: noShower)))
        #expect(revisions.last?.answers[FieldID("3")] == nil, "the completed revision holds visible answers only")
        #expect(revisions.contains { $0.answers[FieldID("3")] == 1 }, "the revision history keeps the hidden answer")

        let sync = try profile.jqc(["sync"])
        #expect(sync.status == 0, "sync: \(sync.stdout) \(sync.stderr)")
        for id in [good, noShower, poorTiles, third] {
            let shown = try profile.show(id)
            #expect(shown["state"] == "SYNCED", "report \(id): \(shown["state"] ?? nil) \(shown["last_error"] ?? nil)")
            let serverID = try #require(shown["server_id"]?.stringValue)
            let remote = try await serverScore(server, serverID: serverID)
            #expect(
                remote.map { r in deviceScores[id]??.isEqual(r) ?? false } ?? false,
                "server \(String(describing: remote)), device \(String(describing: deviceScores[id]))")
        }
    }

    @Test(
        "a hand-made report answering a hidden field, leaving a conditionally required field empty, or with a wrong calculation is REJECTED naming the field"
    )
    func handMade() async throws {
        let server = try ServerProcess(["--demo"])
        let login = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"),
            json: ["username": "inspector", "password": "inspector-pass"])
        let token = try #require(login.data["access_token"]?.stringValue)
        func sync(_ answers: [String: JSONValue]) async throws -> JSONValue {
            let report: JSONValue = [
                "local_id": .string(UUID().uuidString.lowercased()), "template_id": "washroom-logic",
                "facility_id": "F-100",
                "payload": ["answers": .object(answers), "score": 1.0, "follow_up_required": false], "issues": [],
            ]
            let response = try await HTTPTestClient().send(
                "POST", server.url("/reports/sync"),
                json: [
                    "device_id": .string(UUID().uuidString.lowercased()), "app_version": "0.1.0", "schema_version": 1,
                    "reports": [report],
                ], token: token)
            try #require(response.status == 200, "sync: \(response.status)")
            return try #require(response.data["results"]?.arrayValue?.first)
        }
        let valid: [String: JSONValue] = ["1": "fail", "7": 10, "8": 1, "9": 10, "10": "pass", "11": "Good"]
        let accepted = try await sync(valid)
        #expect(accepted["status"] == "ACCEPTED", "\(accepted)")

        var hiddenAnswer = valid
        hiddenAnswer["3"] = 4
        let refused = try await sync(hiddenAnswer)
        #expect(refused["status"] == "REJECTED")
        #expect(refused["error_code"] == "REPORT_INVALID")
        let message = refused["error"]?.stringValue ?? ""
        #expect(message.contains("Shower tiles") && message.contains("hidden by condition"), "\(message)")

        var wrongCalculation = valid
        wrongCalculation["9"] = 12
        let miscalculated = try await sync(wrongCalculation)
        #expect(miscalculated["status"] == "REJECTED")
        #expect(miscalculated["error"]?.stringValue?.contains("Broken share (%)") == true, "\(miscalculated)")

        var poorOdour = valid
        poorOdour["11"] = "Poor"
        let missing = try await sync(poorOdour)
        #expect(missing["status"] == "REJECTED")
        #expect(missing["error"]?.stringValue?.contains("Odour source") == true, "\(missing)")
    }
}

extension FormLogicJourneyTests {
    static let newerTemplates = #"""
        {"templates": [{"id": "logic-newer", "name": "Logic from a newer server", "version": 1, "form_schema": {"fields": [
          {"id": 1, "type": "text", "label": "Site code", "required": true},
          {"id": 2, "type": "text", "label": "Notes", "visible_when": {"field": 1, "op": "matches_regex", "value": "^A"}},
          {"id": 3, "type": "number", "label": "Bins counted"},
          {"id": 4, "type": "number", "label": "Litres per bin", "calculate": {"div": [240, {"field": 3}]}},
          {"id": 5, "type": "text", "label": "Shape", "visible_when": "when the site is big"}
        ]}}]}
        """#

    @Test(
        "a template synced from a server with an unknown operator, a malformed condition and a division by zero: nothing crashes, nothing is lost, the report syncs"
    )
    func newerTemplate() async throws {
        let server = try ServerProcess(["--demo"]) { db in
            let file = db + ".newer-templates.json"
            try Data(Self.newerTemplates.utf8).write(to: URL(fileURLWithPath: file))
            let imported = try Programs.run("jqc-server", ["admin", "--db", db, "import-templates", file])
            guard imported.status == 0 else { throw ServerLaunchError(message: imported.stderr) }
        }
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        try #require(try profile.jqc(["sync"]).status == 0)
        let report = try profile.start(["--template", "logic-newer", "--facility", "F-100"])
        for (field, input) in [("1", "A-7"), ("3", "0")] {
            try #require(try profile.jqc(["answer", report, field, input]).status == 0)
        }
        #expect(try profile.show(report)["answers"]?["4"] == nil, "240 / 0 leaves the field unanswered")
        for field in ["2", "5"] {
            let typed = try profile.jqc(["answer", report, field, "hello"])
            #expect(typed.status == 4, "field \(field) is unsupported here")
            #expect(typed.stderr.split(separator: "\n").count == 1, "\(typed.stderr)")
            #expect(try profile.jqc(["answer", report, field, "--value-json", "\"kept \(field)\""]).status == 0)
        }
        let explained = try profile.jqc(["explain", report, "5"])
        #expect(explained.status == 0 && explained.stdout.contains("malformed"), "\(explained.stdout)")
        let (status, completed) = try profile.document(["complete", report])
        try #require(status == 0, "complete: \(completed)")
        let kept = try profile.show(report)["answers"]
        #expect(kept?["2"] == "kept 2" && kept?["5"] == "kept 5", "\(String(describing: kept))")
        #expect(try profile.jqc(["sync"]).status == 0)
        #expect(try profile.show(report)["state"] == "SYNCED")
    }
}

private extension Double {
    func isEqual(_ other: Double) -> Bool { abs(self - other) < 1e-9 }
}
