import Foundation
import Models
import Testing
import TestSupport

@Suite("Reference data")
struct ReferenceContractTests {
    @Test("facilities and their areas; an unknown facility is 404")
    func facilitiesAndAreas() async throws {
        let me = try await Session.inspector(try Shared.running())
        let facilities = try #require(try await me.get("/facilities").data["facilities"]?.arrayValue)
        #expect(facilities.count == 3)
        #expect(facilities.allSatisfy { $0["name"]?.stringValue != nil && $0["project_name"] != nil })
        let areas = try #require(try await me.get("/facilities/F-100/areas").data["areas"]?.arrayValue)
        #expect(areas.count == 3)
        #expect(areas.allSatisfy { $0["facility_id"] == "F-100" })
        let unknown = try await me.get("/facilities/F-999/areas")
        #expect(unknown.status == 404)
        #expect(unknown.code == "NOT_FOUND")
    }

    @Test("the demo templates cover every built-in field type")
    func templatesCoverEveryType() async throws {
        let me = try await Session.inspector(try Shared.running())
        let templates = try #require(try await me.get("/templates").data["templates"]?.arrayValue)
        let types = Set(
            templates.flatMap { $0["form_schema"]?["fields"]?.arrayValue ?? [] }.compactMap { $0["type"]?.stringValue })
        let builtIn: Set<String> = [
            "text", "email", "textarea", "number", "date", "checkbox", "checkbox_group", "radio", "select",
            "rating", "pass_fail", "signature", "image", "table", "section", "label",
        ]
        #expect(builtIn.isSubset(of: types))
        #expect(templates.allSatisfy { Template.decode($0).isSuccess })
    }

    @Test("assignments: the inspector's open ones with due dates; a cursor returns only what changed since")
    func assignmentsWithCursor() async throws {
        let server = try ServerProcess(["--demo"])
        let me = try await Session.inspector(server)
        let first = try await me.get("/assignments")
        let open = try #require(first.data["assignments"]?.arrayValue)
        #expect(open.count == 4)
        #expect(open.allSatisfy { $0["status"] == "open" && $0["due_at"]?.stringValue != nil })
        let cursor = try #require(first.data["cursor"]?.stringValue)

        let unchanged = try await me.get("/assignments?since=\(cursor)")
        #expect(unchanged.data["assignments"]?.arrayValue?.isEmpty == true)

        let report = Reports.lobby().setting("assignment_id", "AS-2")
        #expect(try await me.syncOne(report)["status"] == "ACCEPTED")
        let changed = try await me.get("/assignments?since=\(cursor)")
        let list = try #require(changed.data["assignments"]?.arrayValue)
        #expect(list.map { $0["id"]?.stringValue ?? "" } == ["AS-2"])
        #expect(list.first?["status"] == "closed")

        let other = try await me.get("/assignments?since=garbage")
        #expect(other.status == 400)
        server.stop()
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
