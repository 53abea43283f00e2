import Foundation
import Models
import Testing
import TestSupport

@Suite("Report sync rules")
struct SyncContractTests {
    @Test("a report replayed three times is one record with one server id and revision")
    func replayedThreeTimes() async throws {
        let me = try await Session.inspector(try Shared.running())
        let report = Reports.lobby()
        var seen: [JSONValue] = []
        for _ in 0..<3 { seen.append(try await me.syncOne(report)) }
        #expect(seen.allSatisfy { $0["status"] == "ACCEPTED" })
        #expect(Set(seen.compactMap { $0["server_id"]?.stringValue }).count == 1)
        #expect(seen.allSatisfy { $0["revision"] == 1 })
        let serverID = try #require(seen[0]["server_id"]?.stringValue)
        let history = try await me.get("/inspections?limit=100")
        let items = history.data["items"]?.arrayValue ?? []
        #expect(items.filter { $0["server_id"]?.stringValue == serverID }.count == 1)
    }

    @Test("a stale base revision is a CONFLICT with the server's payload, and nothing is overwritten")
    func staleBaseConflicts() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let localID = UUID()
        let first = try await me.syncOne(Reports.lobby(localID: localID))
        let serverID = try #require(first["server_id"]?.stringValue)
        let edit = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "edit-report", serverID, "--answer", "glass=2"])
        #expect(edit.status == 0, "\(edit.stderr)")

        let mine = Reports.lobby(localID: localID, serverID: serverID, baseRevision: 1, answers: ["glass": 5])
        let result = try await me.syncOne(mine)
        #expect(result["status"] == "CONFLICT")
        #expect(result["server_revision"] == 2)
        #expect(result["server_payload"]?["answers"]?["glass"] == 2)

        let stored = try await me.get("/reports/\(serverID)")
        #expect(stored.data["report"]?["revision"] == 2)
        #expect(stored.data["report"]?["payload"]?["answers"]?["glass"] == 2)
    }

    @Test("replay wins over conflict: an accepted revision sent again is ACCEPTED as it was")
    func replayWinsOverConflict() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let report = Reports.lobby()
        let first = try await me.syncOne(report)
        let serverID = try #require(first["server_id"]?.stringValue)
        let edit = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "edit-report", serverID, "--answer", "glass=1"])
        #expect(edit.status == 0, "\(edit.stderr)")
        let again = try await me.syncOne(report)
        #expect(again["status"] == "ACCEPTED")
        #expect(again["server_id"]?.stringValue == serverID)
        #expect(again["revision"] == 1)
    }

    @Test("an amendment on the current revision is a new revision; every revision is kept")
    func amendment() async throws {
        let me = try await Session.inspector(try Shared.running())
        let localID = UUID()
        let first = try await me.syncOne(Reports.lobby(localID: localID))
        let serverID = try #require(first["server_id"]?.stringValue)
        let amended = try await me.syncOne(
            Reports.lobby(localID: localID, serverID: serverID, baseRevision: 1, answers: ["glass": 5]))
        #expect(amended["status"] == "ACCEPTED")
        #expect(amended["revision"] == 2)
        #expect(amended["server_id"]?.stringValue == serverID)
        let stored = try await me.get("/reports/\(serverID)")
        #expect(stored.data["report"]?["payload"]?["answers"]?["glass"] == 5)
        // The first revision is still there: replaying it is recognised.
        let replay = try await me.syncOne(Reports.lobby(localID: localID))
        #expect(replay["status"] == "ACCEPTED")
        #expect(replay["revision"] == 1)
    }

    @Test("a batch of five with one invalid report: four ACCEPTED, one REJECTED, in request order")
    func batchWithOneInvalid() async throws {
        let me = try await Session.inspector(try Shared.running())
        var reports = (0..<5).map { _ in Reports.lobby() }
        reports[2] = Reports.lobby(answers: ["glass": "shiny"])
        let response = try await me.sync(reports)
        #expect(response.status == 200)
        let results = try #require(response.data["results"]?.arrayValue)
        #expect(
            results.map { $0["status"]?.stringValue ?? "" } == [
                "ACCEPTED", "ACCEPTED", "REJECTED", "ACCEPTED", "ACCEPTED",
            ])
        #expect(
            zip(results, reports).allSatisfy {
                $0["local_id"]?.stringValue?.lowercased() == $1["local_id"]?.stringValue
            })
        #expect(results[2]["error_code"] == "REPORT_INVALID")
        #expect(results[2]["error"]?.stringValue?.isEmpty == false)
    }

    @Test(
        "REJECTED with REPORT_INVALID for an unknown template, missing required answers and wrong types",
        arguments: [
            ("unknown template", Reports.lobby().setting("template_id", "no-such-template")),
            ("missing required", Reports.lobby(answers: ["entrance": .null])),
            ("wrong type", Reports.lobby(answers: ["entrance": 7])),
            ("not an option", Reports.lobby(answers: ["seating": "Sparkling"])),
            ("unknown facility", Reports.lobby().setting("facility_id", "F-999")),
        ])
    func rejected(_ reason: String, _ report: JSONValue) async throws {
        let me = try await Session.inspector(try Shared.running())
        let result = try await me.syncOne(report)
        #expect(result["status"] == "REJECTED", "\(reason)")
        #expect(result["error_code"] == "REPORT_INVALID", "\(reason)")
    }

    @Test("a malformed report is REJECTED alone; its neighbours are ACCEPTED")
    func malformedReportAlone() async throws {
        let me = try await Session.inspector(try Shared.running())
        let broken: JSONValue = [
            "local_id": .string(UUID().uuidString), "template_id": "lobby-walk", "payload": "not an object",
        ]
        let response = try await me.sync([Reports.lobby(), broken, Reports.lobby()])
        let statuses = response.data["results"]?.arrayValue?.map { $0["status"]?.stringValue ?? "" }
        #expect(statuses == ["ACCEPTED", "REJECTED", "ACCEPTED"])
    }

    @Test("a schema version the server cannot migrate is REJECTED with SCHEMA_UNSUPPORTED")
    func schemaUnsupported() async throws {
        let me = try await Session.inspector(try Shared.running())
        let response = try await me.sync([Reports.lobby()], schemaVersion: 99)
        #expect(response.status == 200)
        #expect(response.data["results"]?.arrayValue?.first?["error_code"] == "SCHEMA_UNSUPPORTED")
    }

    @Test("min_supported_app_version is in every sync response, and an older app's work is still accepted")
    func versionGate() async throws {
        let me = try await Session.inspector(try Shared.running())
        let empty = try await me.sync([])
        #expect(empty.data["min_supported_app_version"]?.stringValue == Shared.minimumVersion)
        #expect(empty.data["server_schema_version"] == 1)
        let old = try await me.sync([Reports.lobby()], appVersion: "0.0.1")
        #expect(old.data["min_supported_app_version"]?.stringValue == Shared.minimumVersion)
        #expect(old.data["results"]?.arrayValue?.first?["status"] == "ACCEPTED")
    }

    @Test("a batch of more than 100 reports is refused with 413")
    func batchTooLarge() async throws {
        let me = try await Session.inspector(try Shared.running())
        let response = try await me.sync((0..<101).map { _ in Reports.lobby() })
        #expect(response.status == 413)
        #expect(response.code == "TOO_LARGE")
    }

    @Test("a re-inspection clears the parent's follow-up on the server")
    func reinspectionClearsFollowUp() async throws {
        let me = try await Session.inspector(try Shared.running())
        let parent = try await me.syncOne(Reports.lobby(followUp: true))
        let parentID = try #require(parent["server_id"]?.stringValue)
        #expect(try await me.get("/reports/\(parentID)").data["report"]?["payload"]?["follow_up_required"] == true)
        let child = try await me.syncOne(Reports.lobby(parentServerID: parentID))
        #expect(child["status"] == "ACCEPTED")
        let after = try await me.get("/reports/\(parentID)")
        #expect(after.data["report"]?["payload"]?["follow_up_required"] == false)
        let items = try await me.get("/inspections?limit=100").data["items"]?.arrayValue ?? []
        #expect(items.first { $0["server_id"]?.stringValue == parentID }?["follow_up_required"] == false)
    }

    @Test("an inspector touches only their own reports")
    func ownership() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let other = try await Session.other(server)
        let localID = UUID()
        let mine = try await me.syncOne(Reports.lobby(localID: localID))
        let serverID = try #require(mine["server_id"]?.stringValue)
        let peek = try await other.get("/reports/\(serverID)")
        // Another inspector's report answers as an unknown id (contract 1.1).
        #expect(peek.status == 404)
        #expect(peek.code == "NOT_FOUND")
        let hijack = try await other.syncOne(
            Reports.lobby(localID: localID, serverID: serverID, baseRevision: 1, answers: ["glass": 1]))
        #expect(hijack["status"] == "REJECTED")
        #expect(try await me.get("/reports/\(serverID)").data["report"]?["revision"] == 1)
        let supervisor = try await Session.supervisor(server)
        #expect(try await supervisor.get("/reports/\(serverID)").status == 200)
    }

    @Test("PATCH: supervisors make a new revision, a stale base is 409, inspectors get 403")
    func patch() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        let first = try await me.syncOne(Reports.lobby())
        let serverID = try #require(first["server_id"]?.stringValue)
        let payload: JSONValue = ["answers": ["entrance": "fail", "glass": 3], "follow_up_required": true]
        let byInspector = try await me.patch("/reports/\(serverID)", ["payload": payload, "base_revision": 1])
        #expect(byInspector.status == 403)
        let edited = try await supervisor.patch("/reports/\(serverID)", ["payload": payload, "base_revision": 1])
        #expect(edited.status == 200)
        #expect(edited.data["report"]?["revision"] == 2)
        let stale = try await supervisor.patch("/reports/\(serverID)", ["payload": payload, "base_revision": 1])
        #expect(stale.status == 409)
        #expect(stale.code == "CONFLICT")
        let invalid = try await supervisor.patch(
            "/reports/\(serverID)", ["payload": ["answers": ["glass": "x"]], "base_revision": 2])
        #expect(invalid.status == 422)
        #expect(try await me.get("/reports/\(serverID)").data["report"]?["revision"] == 2)
    }

    @Test(
        "a supervisor's PATCH and the admin's edit keep the signature with covers_revision, the last revision it sealed"
    )
    func signatureCoversRevision() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        let signature: JSONValue = [
            "signer": "Ana Inspector", "signed_at_device": "2026-03-01T14:02:00Z",
            "sha256": .string(String(repeating: "ab", count: 32)),
        ]
        let answers: JSONValue = ["2": 4, "3": 4, "4": "pass", "6": "Good", "18": signature]
        let report = Reports.lobby().setting("template_id", "101").setting("area_id", "A-101")
            .setting("payload", ["answers": answers, "score": 1, "follow_up_required": false])
        let first = try await me.syncOne(report)
        #expect(first["status"] == "ACCEPTED", "\(first)")
        let serverID = try #require(first["server_id"]?.stringValue)

        let edited = try await supervisor.patch(
            "/reports/\(serverID)", ["payload": ["answers": answers.setting("3", 2)], "base_revision": 1])
        #expect(edited.status == 200, "\(edited.json)")
        #expect(edited.data["report"]?["payload"]?["answers"]?["18"] == signature.setting("covers_revision", 1))
        let edit = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "edit-report", serverID, "--answer", "2=1"])
        #expect(edit.status == 0, "\(edit.stderr)")
        let stored = try await me.get("/reports/\(serverID)")
        #expect(stored.data["report"]?["revision"] == 3)
        #expect(
            stored.data["report"]?["payload"]?["answers"]?["18"] == signature.setting("covers_revision", 1),
            "still the revision Ana sealed, not the one before this edit")
    }

    @Test("GET /reports of an unknown id is 404 with the envelope")
    func unknownReport() async throws {
        let me = try await Session.inspector(try Shared.running())
        let response = try await me.get("/reports/R999999")
        #expect(response.status == 404)
        #expect(response.json["ok"] == false)
        #expect(response.code == "NOT_FOUND")
    }
}

@Suite("Forward compatibility and concurrency")
struct ForwardCompatibilityTests {
    static let template = #"""
        {"templates": [{"id": "future", "name": "From a newer server", "version": 1, "form_schema": {"fields": [
          {"id": 1, "type": "rating", "label": "Floors", "required": true},
          {"id": 2, "type": "thermometer", "label": "Water temperature", "unit": "C"},
          {"id": 3, "type": "hologram", "label": "Optional hologram"}
        ]}}]}
        """#

    @Test("answers to field types the server does not know are accepted and kept verbatim")
    func unknownTypeVerbatim() async throws {
        let folder = TemporaryDirectory(prefix: "jqc-templates")
        let server = try ServerProcess(["--demo"]) { db in
            let file = folder.path("templates.json")
            try Data(Self.template.utf8).write(to: URL(fileURLWithPath: file))
            let imported = try Programs.run("jqc-server", ["admin", "--db", db, "import-templates", file])
            guard imported.status == 0 else { throw ServerLaunchError(message: imported.stderr) }
        }
        let me = try await Session.inspector(server)
        let reading: JSONValue = ["celsius": 41.5, "probe": ["id": "P-7", "calibrated": true]]
        let report = Reports.lobby()
            .setting("template_id", "future")
            .setting("area_id", .null)
            .setting("payload", ["answers": ["1": 4, "2": reading], "follow_up_required": false])
        let result = try await me.syncOne(report)
        #expect(result["status"] == "ACCEPTED", "\(result)")
        let serverID = try #require(result["server_id"]?.stringValue)
        let stored = try await me.get("/reports/\(serverID)")
        #expect(stored.data["report"]?["payload"]?["answers"]?["2"] == reading)
        server.stop()
    }

    @Test(
        "templates imported with admin while the server runs judge the very next sync: unknown before, accepted after, a replacement's new requirement at once"
    )
    func importWhileRunning() async throws {
        let server = try ServerProcess(["--demo"])
        defer { server.stop() }
        let me = try await Session.inspector(server)
        func report() -> JSONValue {
            Reports.lobby().setting("template_id", "future").setting("area_id", .null)
                .setting("payload", ["answers": ["1": 4], "follow_up_required": false])
        }
        func importTemplates(_ text: String) throws {
            let file = server.directory.path("templates.json")
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            let imported = try Programs.run(
                "jqc-server", ["admin", "--db", server.databasePath, "import-templates", file])
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let unknown = try await me.syncOne(report())
        #expect(unknown["status"] == "REJECTED")
        #expect(unknown["error"]?.stringValue?.contains("unknown template 'future'") == true, "\(unknown)")

        try importTemplates(Self.template)
        let accepted = try await me.syncOne(report())
        #expect(accepted["status"] == "ACCEPTED", "\(accepted)")

        try importTemplates(
            Self.template.replacingOccurrences(
                of: #"{"id": 3, "type": "hologram", "label": "Optional hologram"}"#,
                with: #"{"id": 3, "type": "rating", "label": "Ceiling", "required": true}"#))
        let refused = try await me.syncOne(report())
        #expect(refused["status"] == "REJECTED", "\(refused)")
        #expect(refused["error"]?.stringValue?.contains("Ceiling") == true, "\(refused)")
    }

    @Test("concurrent syncs from many connections each get their own record")
    func concurrentSyncs() async throws {
        let server = try Shared.running()
        let me = try await Session.inspector(server)
        let results = try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for _ in 0..<16 { group.addTask { try await me.syncOne(Reports.lobby()) } }
            var all: [JSONValue] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0["status"] == "ACCEPTED" })
        #expect(Set(results.compactMap { $0["server_id"]?.stringValue }).count == 16)
    }
}
