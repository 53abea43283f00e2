import Foundation
import Models
import Testing
import TestSupport

/// Contract 1.1 "Merging disjoint edits" against the real server: the worked
/// cases of `Tests/Fixtures/merge/vectors.json` (a base revision uploaded by
/// the inspector, the server's answers made by a supervisor's `PATCH`, the
/// device's amendment of the base sent with `"merge": "fields"`), replays,
/// form logic and 1.0 clients.
@Suite("Merging disjoint edits (contract 1.1)", .serialized)
struct MergeContractTests {
    /// The shared server with the vectors' template imported once.
    static let server: Result<ServerProcess, any Error> = Result {
        let server = try Shared.running()
        let imported = try Programs.run(
            "jqc-server",
            [
                "admin", "--db", server.databasePath, "import-templates",
                Fixtures.url("merge/template.json").path,
            ])
        guard imported.status == 0 else { throw ServerLaunchError(message: "import-templates: \(imported.stderr)") }
        return server
    }

    /// A report of the vectors' template with these answers, the calculated field filled as the device fills it.
    static func report(
        _ localID: UUID, answers: JSONValue, followUp: Bool = false, serverID: String? = nil,
        baseRevision: Int? = nil, issues: [JSONValue] = []
    ) -> JSONValue {
        var members = answers.objectValue ?? [:]
        if let bins = members["3"]?.numberValue {
            members["9"] = bins == bins.rounded() ? .integer(Int64(bins) * 2) : .double(bins * 2)
        }
        var report: [String: JSONValue] = [
            "local_id": .string(localID.uuidString.lowercased()), "template_id": "merge-vectors",
            "facility_id": "F-100",
            "payload": ["answers": .object(members), "follow_up_required": .bool(followUp)], "issues": .array(issues),
        ]
        if let serverID { report["server_id"] = .string(serverID) }
        if let baseRevision { report["base_revision"] = .integer(Int64(baseRevision)) }
        return .object(report)
    }

    /// Uploads `base` as revision 1, makes `server` revision 2 by a supervisor's
    /// edit, and sends the device's amendment of revision 1; returns its result and the report's server id.
    static func diverge(
        base: JSONValue, baseFollowUp: Bool = false, server: JSONValue, serverFollowUp: Bool = false,
        device: JSONValue, deviceFollowUp: Bool = false, merge: Bool = true
    ) async throws -> (JSONValue, String, JSONValue) {
        let running = try Self.server.get()
        let me = try await Session.inspector(running)
        let supervisor = try await Session.supervisor(running)
        let localID = UUID()
        let first = try await me.syncOne(report(localID, answers: base, followUp: baseFollowUp))
        try #require(first["status"] == "ACCEPTED", "\(first)")
        let serverID = try #require(first["server_id"]?.stringValue)
        let serverPayload = report(localID, answers: server, followUp: serverFollowUp)["payload"] ?? .null
        let edited = try await supervisor.patch("/reports/\(serverID)", ["payload": serverPayload, "base_revision": 1])
        try #require(edited.status == 200, "\(edited.json)")
        let amendment = report(localID, answers: device, followUp: deviceFollowUp, serverID: serverID, baseRevision: 1)
        let body: JSONValue = [
            "device_id": .string(UUID().uuidString.lowercased()), "app_version": "0.1.0", "schema_version": 1,
            "reports": [amendment],
        ]
        let response = try await me.post("/reports/sync", merge ? body.setting("merge", "fields") : body)
        try #require(response.status == 200, "\(response.json)")
        return (try #require(response.data["results"]?.arrayValue?.first), serverID, amendment)
    }

    @Test("every worked case of the contract: merged answers and merged_fields, or exactly the conflicting fields")
    func vectors() async throws {
        let cases = try #require(try Fixtures.json("merge/vectors.json")["cases"]?.arrayValue)
        #expect(cases.count >= 11)
        for vector in cases {
            let name = vector["name"]?.stringValue ?? "?"
            let (result, serverID, _) = try await Self.diverge(
                base: vector["base"] ?? [:], baseFollowUp: vector["base_follow_up"]?.boolValue ?? false,
                server: vector["server"] ?? [:], serverFollowUp: vector["server_follow_up"]?.boolValue ?? false,
                device: vector["device"] ?? [:], deviceFollowUp: vector["device_follow_up"]?.boolValue ?? false)
            let expect = vector["expect"] ?? [:]
            #expect(result["status"] == expect["status"], "\(name): \(result)")
            let me = try await Session.inspector(try Self.server.get())
            let stored = try await me.get("/reports/\(serverID)").data["report"]
            if expect["status"] == "ACCEPTED" {
                #expect(result["merged"] == true, "\(name)")
                #expect(result["revision"] == 3, "\(name)")
                #expect(result["merged_fields"] == expect["merged_fields"], "\(name): \(result)")
                let answers = result["server_payload"]?["answers"]
                #expect(AnswerMerge.same(answers, expect["answers"]), "\(name): \(answers ?? .null)")
                if let flag = expect["follow_up_required"] {
                    #expect(result["server_payload"]?["follow_up_required"] == flag, "\(name)")
                }
                #expect(stored?["revision"] == 3, "\(name)")
                #expect(
                    AnswerMerge.same(stored?["payload"]?["answers"], expect["answers"]),
                    "\(name): the server keeps the merge")
            } else {
                #expect(result["conflicting_fields"] == expect["conflicting_fields"], "\(name): \(result)")
                #expect(result["server_revision"] == 2, "\(name)")
                #expect(stored?["revision"] == 2, "\(name): a conflict writes nothing")
            }
        }
    }

    @Test("a merge sent again is answered as it was accepted, and records nothing")
    func replay() async throws {
        let (result, serverID, amendment) = try await Self.diverge(
            base: ["1": "pass", "2": "Ana"], server: ["1": "fail", "2": "Ana"],
            device: ["1": "pass", "2": "Bo"])
        #expect(result["status"] == "ACCEPTED")
        let me = try await Session.inspector(try Self.server.get())
        let again = try await me.post(
            "/reports/sync",
            [
                "device_id": .string(UUID().uuidString.lowercased()), "app_version": "0.1.0",
                "schema_version": 1, "reports": [amendment], "merge": "fields",
            ])
        let replayed = try #require(again.data["results"]?.arrayValue?.first)
        for key in ["status", "revision", "merged", "server_payload", "server_issues", "merged_fields"] {
            #expect(replayed[key] == result[key], "\(key): \(replayed)")
        }
        #expect(try await me.get("/reports/\(serverID)").data["report"]?["revision"] == 3)
        let events = try await me.get("/reports/\(serverID)/events").data["events"]?.arrayValue ?? []
        #expect(events.map { $0["kind"]?.stringValue ?? "" } == ["accepted", "edited", "merged"])
    }

    @Test("a merge the form's logic refuses (the server hid a field the device answered) is a CONFLICT on that field")
    func formLogic() async throws {
        let (result, _, _) = try await Self.diverge(
            base: ["1": "pass"], server: ["1": "fail"],
            device: ["1": "pass", "20": "cracked tile"])
        #expect(result["status"] == "CONFLICT")
        #expect(result["conflicting_fields"] == ["20"])
    }

    @Test("issues merge by local_id like fields")
    func issues() async throws {
        let running = try Self.server.get()
        let me = try await Session.inspector(running)
        let supervisor = try await Session.supervisor(running)
        let localID = UUID()
        func issue(_ description: String) -> JSONValue {
            [
                "local_id": .string(UUID().uuidString.lowercased()), "severity": "high",
                "description": .string(description),
                "photo_local_ids": [],
            ]
        }
        let leak = issue("leak under sink")
        let first = try await me.syncOne(Self.report(localID, answers: ["1": "pass"], issues: [leak]))
        let serverID = try #require(first["server_id"]?.stringValue)
        let edited = try await supervisor.patch(
            "/reports/\(serverID)", ["payload": ["answers": ["1": "fail"]], "base_revision": 1])
        try #require(edited.status == 200, "\(edited.json)")
        let crack = issue("cracked mirror")
        let amendment = Self.report(
            localID, answers: ["1": "pass", "2": "Bo"], serverID: serverID, baseRevision: 1, issues: [leak, crack])
        let response = try await me.post(
            "/reports/sync",
            [
                "device_id": .string(UUID().uuidString.lowercased()), "app_version": "0.1.0",
                "schema_version": 1, "reports": [amendment], "merge": "fields",
            ])
        let result = try #require(response.data["results"]?.arrayValue?.first)
        #expect(result["status"] == "ACCEPTED", "\(result)")
        #expect(
            result["server_issues"]?.arrayValue?.compactMap { $0["description"]?.stringValue } == [
                "leak under sink", "cracked mirror",
            ])
        #expect(result["merged_fields"] == ["1"])
    }

    @Test("without merge, a stale base is the 1.0 CONFLICT: the server's payload and revision, no conflicting_fields")
    func oldClient() async throws {
        let (result, serverID, _) = try await Self.diverge(
            base: ["1": "pass", "2": "Ana"], server: ["1": "fail", "2": "Ana"],
            device: ["1": "pass", "2": "Bo"], merge: false)
        #expect(result["status"] == "CONFLICT")
        #expect(result["server_revision"] == 2)
        #expect(result["server_payload"]?["answers"]?["1"] == "fail")
        #expect(result["conflicting_fields"] == nil)
        #expect(result["merged"] == nil)
        let me = try await Session.inspector(try Self.server.get())
        #expect(try await me.get("/reports/\(serverID)").data["report"]?["revision"] == 2)
    }

    @Test("every sync answer tells the contract version and the data generation")
    func contractVersion() async throws {
        let me = try await Session.inspector(try Self.server.get())
        let response = try await me.sync([])
        #expect(response.data["contract_version"] == "1.2", "corrective actions: contract 1.2")
        #expect(response.data["server_generation"]?.stringValue?.isEmpty == false)
    }
}
