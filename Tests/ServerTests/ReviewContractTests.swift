import Foundation
import Models
import Testing
import TestSupport

/// Contract 1.1's review on the reference server (both stores: the server
/// suite runs again on PostgreSQL): decisions, the reviews feed, events.
@Suite("Review (contract 1.1)")
struct ReviewContractTests {
    /// Syncs a new lobby report as `session`; returns its server id.
    static func accepted(_ session: Session, localID: UUID = UUID()) async throws -> String {
        let result = try await session.syncOne(Reports.lobby(localID: localID))
        #expect(result["status"] == "ACCEPTED")
        return try #require(result["server_id"]?.stringValue)
    }

    @Test(
        "return with comments, the inspector's feed shows it, an amendment reopens it, approve; the events tell who did what"
    )
    func reviewLoop() async throws {
        let server = try Shared.running()
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        let localID = UUID()
        let serverID = try await Self.accepted(inspector, localID: localID)

        // A new report awaits review, in the inspector's feed.
        let first = try await inspector.get("/reviews")
        #expect(first.status == 200)
        let mine = first.data["reviews"]?.arrayValue?.first { $0["server_id"]?.stringValue == serverID }
        #expect(mine?["state"] == "awaiting_review")
        #expect(mine?["revision"] == 1)
        let cursor = try #require(first.data["cursor"]?.stringValue)
        #expect(
            try await supervisor.get("/reports/\(serverID)").data["report"]?["review"]?["state"] == "awaiting_review")

        let decision: JSONValue = [
            "decision": "return", "revision": 1, "comment": "Glass photo is blurry",
            "field_comments": [["field_id": "glass", "comment": "Rate again after cleaning"]],
        ]
        let returned = try await supervisor.post("/reports/\(serverID)/review", decision)
        #expect(returned.status == 200, "\(returned.message)")
        #expect(returned.data["review"]?["state"] == "returned")
        #expect(returned.data["review"]?["decided_by"]?["display_name"] == "Sam Supervisor")
        #expect(returned.data["review"]?["field_comments"]?.arrayValue?.first?["field_id"] == "glass")
        // The same decision again records nothing and answers the same review.
        let again = try await supervisor.post("/reports/\(serverID)/review", decision)
        #expect(again.data["review"] == returned.data["review"])

        // The inspector's next pull after the cursor has it, with a later change.
        let feed = try await inspector.get("/reviews?since=\(cursor)")
        let pulled = feed.data["reviews"]?.arrayValue?.first { $0["server_id"]?.stringValue == serverID }
        #expect(pulled?["state"] == "returned")
        #expect(pulled?["comment"] == "Glass photo is blurry")
        #expect(feed.data["more"] == false)

        // Deciding on revision 1 after the inspector amended it is stale.
        let amended = try await inspector.syncOne(
            Reports.lobby(
                localID: localID, serverID: serverID, baseRevision: 1,
                answers: ["glass": 5]))
        #expect(amended["revision"] == 2)
        let reopened = try await supervisor.get("/reports/\(serverID)")
        #expect(reopened.data["report"]?["review"]?["state"] == "awaiting_review")
        #expect(reopened.data["report"]?["review"]?["revision"] == 2)
        let stale = try await supervisor.post("/reports/\(serverID)/review", ["decision": "approve", "revision": 1])
        #expect(stale.status == 409)
        #expect(stale.code == "REVISION_STALE")
        #expect(stale.json["data"]?["review"]?["revision"] == 2)
        #expect(
            try await supervisor.post("/reports/\(serverID)/review", ["decision": "approve", "revision": 2]).status
                == 200)

        let events = try await inspector.get("/reports/\(serverID)/events").data["events"]?.arrayValue ?? []
        #expect(events.map { $0["kind"]?.stringValue ?? "" } == ["accepted", "returned", "amended", "approved"])
        #expect(
            events.map { $0["actor"]?["id"]?.stringValue ?? "" }
                == [inspector.userID, supervisor.userID, inspector.userID, supervisor.userID])
        #expect(events[1]["field_comments"]?.arrayValue?.count == 1)
        #expect(events.map { $0["revision"] } == [1, 1, 2, 2])

        // The history says so, and filters by it.
        let approved = try await supervisor.get("/inspections?review_state=approved&limit=100")
        let item = approved.data["items"]?.arrayValue?.first { $0["server_id"]?.stringValue == serverID }
        #expect(item?["review_state"] == "approved")
        #expect(item?["revision"] == 2)
        let awaiting = try await supervisor.get("/inspections?review_state=awaiting_review&limit=100")
        #expect(awaiting.data["items"]?.arrayValue?.contains { $0["server_id"]?.stringValue == serverID } == false)
        #expect(try await supervisor.get("/inspections?review_state=maybe").status == 400)

        // An earlier revision can be read, one the server does not hold cannot.
        #expect(
            try await supervisor.get("/reports/\(serverID)?revision=1").data["report"]?["payload"]?["answers"]?["glass"]
                == 4)
        #expect(try await supervisor.get("/reports/\(serverID)?revision=9").status == 404)
        // A number past what any store holds is not held either, never a server error.
        #expect(try await supervisor.get("/reports/\(serverID)?revision=318352574505970").status == 404)
    }

    @Test(
        "inspectors cannot decide nor read others' reviews and events; return and reject must say why; cursors are checked"
    )
    func refusals() async throws {
        let server = try Shared.running()
        let inspector = try await Session.inspector(server)
        let other = try await Session.other(server)
        let supervisor = try await Session.supervisor(server)
        let serverID = try await Self.accepted(inspector)

        let byInspector = try await inspector.post(
            "/reports/\(serverID)/review", ["decision": "approve", "revision": 1])
        #expect(byInspector.status == 403)
        #expect(try await other.get("/reports/\(serverID)/events").status == 404)
        let othersFeed = try await other.get("/reviews").data["reviews"]?.arrayValue ?? []
        #expect(!othersFeed.contains { $0["server_id"]?.stringValue == serverID })

        let silent = try await supervisor.post(
            "/reports/\(serverID)/review", ["decision": "reject", "revision": 1, "comment": "  "])
        #expect(silent.status == 400)
        let unknownField = try await supervisor.post(
            "/reports/\(serverID)/review",
            [
                "decision": "return", "revision": 1, "field_comments": [["field_id": "no-such-field", "comment": "?"]],
            ])
        #expect(unknownField.status == 400)
        #expect(unknownField.message.contains("no-such-field"))
        #expect(
            try await supervisor.post("/reports/\(serverID)/review", ["decision": "maybe", "revision": 1]).status == 400
        )
        #expect(
            try await supervisor.post("/reports/R-nothing-here/review", ["decision": "approve", "revision": 1]).status
                == 404)

        let forged = try await inspector.get("/reviews?since=somewhere.12")
        #expect(forged.status == 400)
        #expect(forged.code == "CURSOR_INVALID")
        #expect(try await inspector.get("/reviews?limit=0").status == 400)
    }

    @Test("the feed pages in order of change: limit, more, and a cursor that never goes back")
    func paging() async throws {
        let server = try Shared.running()
        // An inspector of its own: other tests decide on and amend the demo inspector's reports meanwhile.
        let inspector = try await Session.login(server, "pager", "pager-password")
        let supervisor = try await Session.supervisor(server)
        var ids: [String] = []
        for _ in 0..<3 { ids.append(try await Self.accepted(inspector)) }
        for id in ids {
            _ = try await supervisor.post("/reports/\(id)/review", ["decision": "approve", "revision": 1])
        }
        var since = ""
        var seen: [String] = []
        var positions: [String] = []
        for _ in 0..<1000 {
            let page = try await inspector.get("/reviews?limit=2" + (since.isEmpty ? "" : "&since=\(since)"))
            let reviews = page.data["reviews"]?.arrayValue ?? []
            #expect(reviews.count <= 2)
            seen += reviews.compactMap { $0["server_id"]?.stringValue }
            positions += reviews.compactMap { $0["change"]?.stringValue }
            since = try #require(page.data["cursor"]?.stringValue)
            if page.data["more"] != true { break }
        }
        #expect(Set(ids).isSubset(of: Set(seen)))
        #expect(Set(seen).count == seen.count, "each report once: the review's latest change only")
        let numbers = positions.compactMap { Int64($0.split(separator: ".").last ?? "") }
        #expect(numbers == numbers.sorted())
    }
}
