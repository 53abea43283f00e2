import Foundation
import Models
import Testing
import TestSupport

/// Corrective actions (contract 1.2) on both stores: made from issues when
/// a report is accepted, made by supervisors, moved by the people the table
/// of moves names, seen only by those who may see them, read as a feed.
@Suite("Corrective actions (contract 1.2)")
struct ActionContractTests {
    /// The demo world, two crew members and a second inspector.
    static let server: Result<ServerProcess, any Error> = Result { try started() }

    /// A server of the demo world with the suite's people.
    static func started() throws -> ServerProcess {
        try ServerProcess(["--demo"] + ServerProcess.manyClients) { db in
            for (name, role) in [("cora", "crew"), ("carl", "crew"), ("other", "inspector")] {
                let added = try Programs.run(
                    "jqc-server", ["admin", "--db", db, "user", "add", name, "--role", role],
                    stdin: "\(name)-password\n")
                guard added.status == 0 else { throw ServerLaunchError(message: "user add: \(added.stderr)") }
            }
        }
    }

    static func crew(_ server: ServerProcess, _ name: String = "cora") async throws -> Session {
        try await Session.login(server, name, "\(name)-password")
    }

    /// A lobby report carrying `issues` (description, severity), each with an id of its own.
    static func report(_ issues: [(String, String)], localID: UUID = UUID(), ids: [String]? = nil) -> JSONValue {
        Reports.lobby(localID: localID).setting(
            "issues",
            .array(
                issues.enumerated().map { index, issue in
                    [
                        "local_id": .string(ids?[index] ?? UUID().uuidString.lowercased()),
                        "description": .string(issue.0), "severity": .string(issue.1), "photo_local_ids": [],
                    ]
                }))
    }

    /// Every action the session's feed holds, walked page by page.
    static func feed(_ session: Session, pageSize: Int = 100) async throws -> [JSONValue] {
        var all: [JSONValue] = []
        var cursor = ""
        for _ in 0..<1000 {
            let page = try await session.get("/actions?limit=\(pageSize)" + (cursor.isEmpty ? "" : "&since=\(cursor)"))
            try #require(page.status == 200, "\(page.status) \(page.message)")
            all += page.data["actions"]?.arrayValue ?? []
            cursor = page.data["cursor"]?.stringValue ?? ""
            if page.data["more"] != .bool(true) { break }
        }
        return all
    }

    /// `POST /actions/{id}/updates` with a fresh update id and `fields`.
    static func update(_ session: Session, _ actionID: String, _ fields: [String: JSONValue]) async throws
        -> TestResponse
    {
        var body = fields
        body["id"] = .string(UUID().uuidString.lowercased())
        return try await session.post("/actions/\(actionID)/updates", .object(body))
    }

    @Test(
        "an accepted report's critical issue becomes one action (due 24 h after acceptance), a low one none; a replay makes no second; an amendment raising an issue makes its action then"
    )
    func actionsFromIssues() async throws {
        let server = try Self.server.get()
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        let critical = UUID().uuidString.lowercased()
        let minor = UUID().uuidString.lowercased()
        let localID = UUID()
        let first = Self.report(
            [("Tap leaking under basin 2\nwater on the floor", "critical"), ("Smudge on mirror", "low")],
            localID: localID, ids: [critical, minor])
        let accepted = try await inspector.syncOne(first)
        let serverID = try #require(accepted["server_id"]?.stringValue)
        #expect(try await inspector.syncOne(first)["status"] == "ACCEPTED")

        let made = try await Self.feed(supervisor).filter { $0["source"]?["report_server_id"]?.stringValue == serverID }
        #expect(made.count == 1, "\(made)")
        let action = try #require(made.first)
        #expect(action["source"]?["kind"] == "issue" && action["source"]?["issue_local_id"]?.stringValue == critical)
        #expect(action["title"] == "Tap leaking under basin 2")
        #expect(action["severity"] == "critical" && action["state"] == "open" && action["version"] == 1)
        #expect(action["facility_id"] == "F-100" && action["area_id"] == "A-102" && action["internal"] == false)
        #expect(action["created_by"]?["username"] == "inspector" && action["assignee"] == nil)
        let created = try #require(action["created_at"]?.stringValue.flatMap(RFC3339.date))
        let due = try #require(action["due_at"]?.stringValue.flatMap(RFC3339.date))
        #expect(due.timeIntervalSince(created) == 24 * 3600)
        // The inspector of the report sees it; another inspector does not.
        let actionID = try #require(action["id"]?.stringValue)
        #expect(try await inspector.get("/actions/\(actionID)").status == 200)
        let other = try await Session.login(server, "other", "other-password")
        #expect(try await other.get("/actions/\(actionID)").status == 404)
        #expect(!(try await Self.feed(other)).contains { $0["id"]?.stringValue == actionID })

        // The amendment raises the minor issue to high: its action is made now, the critical one's stays one.
        let amended = Self.report(
            [("Tap leaking under basin 2\nwater on the floor", "critical"), ("Smudge on mirror", "high")],
            localID: localID, ids: [critical, minor]
        ).setting("server_id", .string(serverID)).setting("base_revision", 1)
        #expect(try await inspector.syncOne(amended)["status"] == "ACCEPTED")
        let after = try await Self.feed(supervisor).filter {
            $0["source"]?["report_server_id"]?.stringValue == serverID
        }
        #expect(after.count == 2)
        #expect(Set(after.compactMap { $0["source"]?["issue_local_id"]?.stringValue }) == [critical, minor])
    }

    @Test(
        "POST /actions: 201 once, 200 with the same action for the same id or an issue that has one; inspectors and crew 403; an unknown report 404, an issue not in it 400"
    )
    func makingActions() async throws {
        let server = try Self.server.get()
        let supervisor = try await Session.supervisor(server)
        let inspector = try await Session.inspector(server)
        let requestID = UUID().uuidString.lowercased()
        let body: JSONValue = [
            "id": .string(requestID), "facility_id": "F-100", "area_id": "A-101", "title": "Refill soap dispensers",
            "severity": "low", "assignee": "cora", "due_at": "2030-01-02T08:00:00Z", "internal": true,
        ]
        let made = try await supervisor.post("/actions", body)
        #expect(made.status == 201, "\(made.message)")
        let action = made.data["action"] ?? .null
        #expect(action["source"]?["kind"] == "supervisor" && action["created_by"]?["username"] == "supervisor")
        #expect(action["assignee"]?["username"] == "cora" && action["internal"] == true)
        #expect(action["due_at"] == "2030-01-02T08:00:00Z" && action["updates"] == [])
        let again = try await supervisor.post("/actions", body.setting("title", "something else"))
        #expect(again.status == 200 && again.data["action"]?["id"] == action["id"])
        #expect(again.data["action"]?["title"] == "Refill soap dispensers")

        for caller in [inspector, try await Self.crew(server)] {
            let refused = try await caller.post("/actions", body.setting("id", .string(UUID().uuidString)))
            #expect(refused.status == 403 && refused.code == "FORBIDDEN")
        }
        let fresh = { body.setting("id", .string(UUID().uuidString.lowercased())) }
        #expect(try await supervisor.post("/actions", fresh().setting("report_server_id", "R-nothing")).status == 404)
        let issue = UUID().uuidString.lowercased()
        let serverID = try #require(
            try await inspector.syncOne(Self.report([("Bin overflowing", "medium")], ids: [issue]))["server_id"]?
                .stringValue)
        let wrongIssue = try await supervisor.post(
            "/actions",
            fresh().setting("report_server_id", .string(serverID)).setting(
                "issue_local_id", .string(UUID().uuidString)))
        #expect(wrongIssue.status == 400, "\(wrongIssue.message)")
        let fromIssue = try await supervisor.post(
            "/actions", fresh().setting("report_server_id", .string(serverID)).setting("issue_local_id", .string(issue))
        )
        #expect(fromIssue.status == 201 && fromIssue.data["action"]?["source"]?["kind"] == "issue")
        let sameIssue = try await supervisor.post(
            "/actions", fresh().setting("report_server_id", .string(serverID)).setting("issue_local_id", .string(issue))
        )
        #expect(sameIssue.status == 200 && sameIssue.data["action"]?["id"] == fromIssue.data["action"]?["id"])
        #expect(try await supervisor.post("/actions", fresh().setting("severity", "urgent")).status == 400)
        #expect(try await supervisor.post("/actions", fresh().setting("title", "  ")).status == 400)
        #expect(try await supervisor.post("/actions", fresh().setting("facility_id", "F-nowhere")).status == 404)
    }

    @Test(
        "the table of moves: crew work an assigned action to done; crew may not cancel, assign or verify; the report's inspector verifies; a final state is 409 ACTION_STATE with the action; the same update id records once"
    )
    func movingActions() async throws {
        let server = try Self.server.get()
        let supervisor = try await Session.supervisor(server)
        let inspector = try await Session.inspector(server)
        let cora = try await Self.crew(server)
        let issue = UUID().uuidString.lowercased()
        let serverID = try #require(
            try await inspector.syncOne(Self.report([("Hand dryer broken", "high")], ids: [issue]))["server_id"]?
                .stringValue)
        let action = try #require(
            try await Self.feed(supervisor).first { $0["source"]?["report_server_id"]?.stringValue == serverID })
        let id = try #require(action["id"]?.stringValue)
        #expect(try await cora.get("/actions/\(id)").status == 404, "crew see only what is theirs")

        #expect(try await Self.update(cora, id, ["assignee": "cora"]).status == 404)
        let assigned = try await Self.update(supervisor, id, ["assignee": "cora", "due_at": "2030-03-01T12:00:00Z"])
        #expect(assigned.status == 200 && assigned.data["action"]?["assignee"]?["username"] == "cora")
        #expect(assigned.data["action"]?["updates"]?.arrayValue?.first?["assignee"] == "cora")
        #expect(try await Self.update(cora, id, ["state": "cancelled"]).status == 403)
        #expect(try await Self.update(cora, id, ["assignee": "carl"]).status == 403)
        #expect(try await Self.update(cora, id, ["due_at": .null]).status == 403)
        #expect(try await Self.update(cora, id, ["state": "in_progress"]).status == 200)
        let sameID = UUID().uuidString.lowercased()
        let done = try await cora.post(
            "/actions/\(id)/updates", ["id": .string(sameID), "state": "done", "comment": "Replaced the fuse"])
        #expect(done.status == 200 && done.data["action"]?["state"] == "done" && done.data["action"]?["version"] == 4)
        let replay = try await cora.post(
            "/actions/\(id)/updates", ["id": .string(sameID), "state": "done", "comment": "Replaced the fuse"])
        #expect(replay.status == 200 && replay.data["action"]?["version"] == 4)
        #expect(replay.data["action"]?["updates"]?.arrayValue?.count == 3)
        #expect(try await Self.update(cora, id, ["state": "verified"]).status == 403, "crew do not verify")

        let verified = try await Self.update(inspector, id, ["state": "verified", "comment": "Works again"])
        #expect(verified.status == 200 && verified.data["action"]?["state"] == "verified")
        let updates = verified.data["action"]?["updates"]?.arrayValue ?? []
        #expect(
            updates.map { $0["author"]?["username"]?.stringValue ?? "" } == ["supervisor", "cora", "cora", "inspector"])
        #expect(updates.map { $0["version"]?.integerValue ?? 0 } == [2, 3, 4, 5])

        let final = try await Self.update(supervisor, id, ["state": "open"])
        #expect(final.status == 409 && final.code == "ACTION_STATE")
        #expect(final.json["data"]?["action"]?["state"] == "verified")
        #expect(try await Self.update(supervisor, id, ["comment": "Checked on my round"]).status == 200)
        #expect(try await Self.update(cora, id, ["comment": "   "]).status == 400)
        #expect(try await Self.update(cora, id, [:]).status == 400)
    }

    @Test(
        "whoever moved an action to done neither verifies nor reopens it; moving to the state it is in is 409; a reassigned action stays in the first assignee's feed"
    )
    func ownWorkAndReassignment() async throws {
        let server = try Self.server.get()
        let supervisor = try await Session.supervisor(server)
        let cora = try await Self.crew(server)
        let carl = try await Self.crew(server, "carl")
        let made = try await supervisor.post(
            "/actions",
            [
                "id": .string(UUID().uuidString.lowercased()), "facility_id": "F-100", "title": "Polish the brass",
                "assignee": "cora",
            ])
        let id = try #require(made.data["action"]?["id"]?.stringValue)
        let again = try await Self.update(supervisor, id, ["state": "open"])
        #expect(again.status == 409 && again.code == "ACTION_STATE", "open to open")
        #expect(try await Self.update(supervisor, id, ["assignee": "carl"]).status == 200)
        #expect(try await cora.get("/actions/\(id)").status == 200, "assigned to cora before")
        #expect(try await Self.feed(carl).contains { $0["id"]?.stringValue == id })
        #expect(try await Self.update(carl, id, ["state": "done"]).status == 200)
        #expect(try await Self.update(carl, id, ["state": "in_progress"]).status == 409, "done is not open")
        #expect(try await Self.update(cora, id, ["state": "in_progress"]).status == 403, "cora is not its assignee now")

        let bySupervisor = try await supervisor.post(
            "/actions",
            ["id": .string(UUID().uuidString.lowercased()), "facility_id": "F-100", "title": "Mop the landing"])
        let own = try #require(bySupervisor.data["action"]?["id"]?.stringValue)
        #expect(try await Self.update(supervisor, own, ["state": "done"]).status == 200)
        let refused = try await Self.update(supervisor, own, ["state": "verified"])
        #expect(refused.status == 403, "\(refused.message)")
        #expect(try await Self.update(supervisor, own, ["state": "open"]).status == 403)
        #expect(try await Self.update(carl, own, ["state": "verified"]).status == 404, "not carl's to see")
    }

    @Test("crew send no reports: each is REJECTED FORBIDDEN and nothing is stored; the feed pages by cursor")
    func crewAndPaging() async throws {
        // A server of its own: the feed's order is the order of changes, which the other tests keep making.
        let server = try Self.started()
        defer { _ = server.stop() }
        let cora = try await Self.crew(server)
        let response = try await cora.sync([Reports.lobby()])
        #expect(response.status == 200)
        let result = response.data["results"]?.arrayValue?.first
        #expect(result?["status"] == "REJECTED" && result?["error_code"] == "FORBIDDEN", "\(response.data)")
        #expect(try await cora.get("/facilities").status == 200, "crew read reference data")

        let supervisor = try await Session.supervisor(server)
        for title in ["Sweep the yard", "Wash the bins", "Clear the drain"] {
            let made = try await supervisor.post(
                "/actions",
                ["id": .string(UUID().uuidString.lowercased()), "facility_id": "F-100", "title": .string(title)])
            #expect(made.status == 201)
        }
        let whole = try await Self.feed(supervisor)
        let paged = try await Self.feed(supervisor, pageSize: 1)
        #expect(
            whole.compactMap { $0["title"]?.stringValue } == ["Sweep the yard", "Wash the bins", "Clear the drain"])
        #expect(paged.compactMap { $0["id"]?.stringValue } == whole.compactMap { $0["id"]?.stringValue })
        let bad = try await supervisor.get("/actions?since=elsewhere.3")
        #expect(bad.status == 400 && bad.code == "CURSOR_INVALID")
        #expect(try await supervisor.get("/actions?limit=101").status == 400)
    }
}
