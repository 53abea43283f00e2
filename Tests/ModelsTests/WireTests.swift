import Foundation
import Testing
import Models

@Suite("Wire types of the contract")
struct WireTests {
    @Test("an id on the wire is Foundation's text in lowercase")
    func wireIDs() {
        for _ in 0..<200 {
            let id = UUID()
            #expect(id.wireString == id.uuidString.lowercased())
        }
    }

    @Test("the envelope reads success data and failures with their code")
    func envelope() throws {
        let ok = try JSONDecoder().decode(
            Envelope<MeResponse>.self,
            from: Data(
                #"""
                {"ok": true, "data": {"user": {"id": 3, "username": "ana", "role": "inspector", "display_name": "Ana"}}, "extra": 1}
                """#.utf8))
        guard case .success(let me) = ok else { Issue.record("not a success"); return }
        #expect(me.user == WireUser(id: "3", username: "ana", role: .inspector, displayName: "Ana"))

        let failed = try JSONDecoder().decode(
            Envelope<MeResponse>.self,
            from: Data(#"{"ok": false, "error": "Token expired", "code": "AUTH_REQUIRED"}"#.utf8))
        guard case .failure(let code, let message) = failed else { Issue.record("not a failure"); return }
        #expect(code == "AUTH_REQUIRED")
        #expect(message == "Token expired")
    }

    @Test("a sync request encodes with the contract's snake_case keys")
    func syncRequest() throws {
        let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        let request = SyncRequest(
            deviceID: id, appVersion: "0.1.0", schemaVersion: 1,
            reports: [
                WireReport(
                    localID: id, baseRevision: 2, templateID: "t1", facilityID: "f1",
                    payload: WirePayload(answers: ["5": 4], score: 0.8, followUpRequired: true),
                    issues: [WireIssue(localID: id, severity: .high, description: "Leak", photoLocalIDs: [id])])
            ])
        let json = try JSONValue.parse(try JSONEncoder().encode(request))
        #expect(json["device_id"] == .string(id.uuidString.lowercased()), "UUIDs go on the wire in lowercase")
        #expect(json["app_version"] == "0.1.0")
        #expect(json["schema_version"] == 1)
        let report = try #require(json["reports"]?.arrayValue?.first)
        #expect(report["base_revision"] == 2)
        #expect(report["template_id"] == "t1")
        #expect(report["payload"]?["answers"]?["5"] == 4)
        #expect(report["payload"]?["follow_up_required"] == true)
        #expect(
            report["issues"]?.arrayValue?.first?["photo_local_ids"] == .array([.string(id.uuidString.lowercased())]))
    }

    @Test("a sync response is read in request order with every optional part, unknown keys ignored")
    func syncResponse() throws {
        let a = UUID(), b = UUID(), c = UUID()
        let text = """
            {"results": [
              {"local_id": "\(a)", "status": "ACCEPTED", "server_id": 41, "revision": 1},
              {"local_id": "\(b)", "status": "CONFLICT", "server_payload": {"answers": {"1": "fail"}}, "server_revision": 3},
              {"local_id": "\(c)", "status": "REJECTED", "error_code": "REPORT_INVALID", "error": "answer to '2' must be a number", "hint": "x"}
             ], "min_supported_app_version": "0.2.0", "server_schema_version": 1, "server_time": "now"}
            """
        let response = try JSONDecoder().decode(SyncResponse.self, from: Data(text.utf8))
        #expect(response.results.map(\.localID) == [a, b, c])
        #expect(response.results[0].serverID == "41")
        #expect(response.results[1].serverPayload?["answers"]?["1"] == "fail")
        #expect(response.results[1].serverRevision == 3)
        #expect(response.results[2].errorCode == "REPORT_INVALID")
        #expect(response.minSupportedAppVersion == "0.2.0")
    }

    @Test("reference data accepts integer or string ids and keeps them as strings")
    func referenceIDs() throws {
        let data = Data(
            #"{"assignments": [{"id": 9, "template_id": "t1", "facility_id": 2, "status": "paused"}], "cursor": "c2"}"#
                .utf8)
        let response = try JSONDecoder().decode(AssignmentsResponse.self, from: data)
        #expect(response.assignments[0].id == "9")
        #expect(response.assignments[0].facilityID == "2")
        #expect(response.assignments[0].areaID == nil)
        #expect(response.assignments[0].status == .open, "an unknown status shows the assignment rather than hiding it")
        #expect(response.cursor == "c2")
    }
}
