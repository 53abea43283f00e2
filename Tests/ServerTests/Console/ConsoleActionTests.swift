import Foundation
import Models
import Testing
import TestSupport

/// Corrective actions in the console (both stores): the list, an action's
/// page and its forms, under the same rules as the API.
@Suite("Console: corrective actions")
struct ConsoleActionTests {
    /// The fields of a form of an action's page: a new update id, the session's token, and `fields`.
    static func fields(_ client: ConsoleClient, _ fields: [(String, String)]) throws -> [(String, String)] {
        [("csrf", try client.csrf()), ("update_id", UUID().uuidString.lowercased())] + fields
    }

    @Test(
        "a supervisor finds the action an issue became and assigns it; crew start and finish it; the report's inspector verifies; a stale move shows the action as it stands; titles are text"
    )
    func actionThroughTheConsole() async throws {
        let server = try ActionContractTests.started()
        defer { _ = server.stop() }
        let inspector = try await Session.inspector(server)
        let issue = UUID().uuidString.lowercased()
        let serverID = try #require(
            try await inspector.syncOne(
                ActionContractTests.report([("<script>alert(1)</script> basin cracked", "critical")], ids: [issue]))[
                    "server_id"]?.stringValue)

        let supervisor = ConsoleClient(server)
        #expect(try supervisor.signIn("supervisor", "supervisor-pass").status == 303)
        let list = try supervisor.get("/console/actions").text
        #expect(list.contains("&lt;script&gt;alert(1)&lt;/script&gt; basin cracked"), "the title as text")
        #expect(!list.contains("<script>alert(1)"))
        let id = try #require(Self.actionID(in: list))
        #expect(try supervisor.get("/console/reports/\(serverID)").text.contains("Corrective actions (1)"))
        #expect(try supervisor.get("/console/sites/F-100").text.contains("/console/actions/\(id)"))

        let page = try supervisor.get("/console/actions/\(id)").text
        #expect(page.contains("id=\"assign-form\"") && page.contains("value=\"cancelled\""))
        let assigned = try supervisor.post(
            "/console/actions/\(id)",
            try Self.fields(
                supervisor,
                [
                    ("assigning", "1"), ("assignee", "cora"), ("was_assignee", ""), ("due", "2030-01-31"),
                    ("was_due", ""),
                ]
            ))
        #expect(assigned.status == 303, "\(assigned.text)")
        #expect(assigned.headers["location"] == "/console/actions/\(id)?notice=saved")

        let cora = ConsoleClient(server)
        #expect(try cora.signIn("cora", "cora-password").status == 303)
        #expect(try cora.get("/console/actions").text.contains("/console/actions/\(id)"), "in cora's list")
        let coraPage = try cora.get("/console/actions/\(id)").text
        #expect(coraPage.contains("value=\"in_progress\"") && !coraPage.contains("value=\"cancelled\""))
        #expect(!coraPage.contains("id=\"assign-form\""))
        #expect(
            try cora.post("/console/actions/\(id)", try Self.fields(cora, [("state", "in_progress")])).status == 303)
        let stale = try Self.fields(cora, [("state", "done"), ("comment", "Sealed the crack")])
        #expect(try cora.post("/console/actions/\(id)", stale).status == 303)

        let own = ConsoleClient(server)
        #expect(try own.signIn("inspector", "inspector-pass").status == 303)
        let inspectorPage = try own.get("/console/actions/\(id)").text
        #expect(inspectorPage.contains("value=\"verified\"") && inspectorPage.contains("Sealed the crack"))
        #expect(try own.post("/console/actions/\(id)", try Self.fields(own, [("state", "verified")])).status == 303)

        // The same move again, from a page opened before: refused with the action as it now stands.
        let again = try cora.post(
            "/console/actions/\(id)", try Self.fields(cora, [("state", "done"), ("comment", "again")]))
        #expect(again.status == 409, "\(again.status)")
        #expect(again.text.contains("class=\"error\"") && again.text.contains("action-state verified"))
        let thread = try supervisor.get("/console/actions/\(id)").text
        #expect(thread.components(separatedBy: "class=\"update\"").count - 1 == 4, "assign, start, done, verify")
        let other = ConsoleClient(server)
        #expect(try other.signIn("other", "other-password").status == 303)
        #expect(try other.get("/console/actions/\(id)").status == 404)
    }

    /// The id of the first action linked from a page.
    static func actionID(in page: String) -> String? {
        guard let start = page.range(of: "/console/actions/A-") else { return nil }
        let rest = page[start.upperBound...]
        return "A-" + String(rest.prefix { $0.isHexDigit })
    }
    @Test("a photo of a crew member's update shows in the action's thread, served to who may see the action only")
    func photoInTheThread() async throws {
        let server = try ActionContractTests.server.get()
        let supervisor = try await Session.supervisor(server)
        let crew = try await ActionContractTests.crew(server)
        let id = try await ActionPhotoTests.action(supervisor)
        let updateID = UUID().uuidString.lowercased()
        #expect(
            try await crew.post("/actions/\(id)/updates", ["id": .string(updateID), "state": "done"]).status == 200)
        let photo = PhotoContractTests.jpeg(6_000)
        let photoID = UUID().uuidString.lowercased()
        let started = try await ActionPhotoTests.begin(crew, id, photo, localID: photoID, update: updateID)
        let url = try #require(started.data["upload"]?["url"]?.stringValue)
        #expect(try await UploadContractTests.patch(crew, url, offset: 0, photo).status == 201)

        let console = ConsoleClient(server)
        #expect(try console.signIn("supervisor", "supervisor-pass").status == 303)
        let page = try console.get("/console/actions/\(id)").text
        let path = "/console/actions/\(id)/photos/\(photoID)"
        #expect(page.contains("<img class=\"photo-thumb\" src=\"\(path)\""), "the photo in its update's entry")
        let served = try console.get(path)
        #expect(served.status == 200 && served.body == photo)
        let stranger = ConsoleClient(server)
        #expect(try stranger.signIn("other", "other-password").status == 303)
        #expect(try stranger.get(path).status == 404, "not to someone who may not see the action")
    }
    /// The counts the actions page shows for `query`, by state.
    static func counts(_ console: ConsoleClient, _ query: String) throws -> [String: Int] {
        let page = try console.get("/console/actions?" + query).text
        var counts: [String: Int] = [:]
        for state in ["open", "in_progress", "done", "verified", "cancelled"] {
            let pattern = "data-state=\"\(state)\"[^>]*><a [^>]*>[^<]*<span class=\"count\">([0-9]+)</span>"
            if let match = page.range(of: pattern, options: .regularExpression) {
                let digits = page[match].split(separator: ">").last?.prefix { $0.isNumber } ?? ""
                counts[state] = Int(digits)
            }
        }
        return counts
    }

    @Test(
        "the counts per state follow every action made, moved and reassigned, filtered by site, severity and assignee")
    func countsFollowChanges() async throws {
        let server = try ActionContractTests.started()
        defer { _ = server.stop() }
        let supervisor = try await Session.supervisor(server)
        var ids: [String] = []
        var coraID = ""
        for title in ["Polish the brass", "Sweep the dock", "Clear the drain"] {
            let made = try await supervisor.post(
                "/actions",
                [
                    "id": .string(UUID().uuidString.lowercased()), "facility_id": "F-300", "title": .string(title),
                    "severity": "low", "assignee": "cora",
                ])
            ids.append(try #require(made.data["action"]?["id"]?.stringValue))
            coraID = made.data["action"]?["assignee"]?["id"]?.stringValue ?? ""
        }
        #expect(try await ActionContractTests.update(supervisor, ids[0], ["state": "in_progress"]).status == 200)
        #expect(try await ActionContractTests.update(supervisor, ids[1], ["state": "cancelled"]).status == 200)
        let given = try await ActionContractTests.update(supervisor, ids[2], ["assignee": "carl"])
        let carlID = try #require(given.data["action"]?["assignee"]?["id"]?.stringValue)

        let console = ConsoleClient(server)
        #expect(try console.signIn("supervisor", "supervisor-pass").status == 303)
        #expect(
            try Self.counts(console, "facility=F-300&severity=low")
                == ["open": 1, "in_progress": 1, "done": 0, "verified": 0, "cancelled": 1])
        #expect(
            try Self.counts(console, "facility=F-300&assignee=\(coraID)")
                == ["open": 0, "in_progress": 1, "done": 0, "verified": 0, "cancelled": 1])
        #expect(try Self.counts(console, "facility=F-300&assignee=\(carlID)")["open"] == 1)
        #expect(try Self.counts(console, "facility=F-300&severity=high")["open"] == 0)
    }
}
