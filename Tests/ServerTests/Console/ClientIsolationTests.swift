import Foundation
import Models
import Testing
import TestSupport

/// Clients (contract 1.2): each sees their own buildings' approved reports,
/// without private fields, and the actions there that are not internal;
/// every other report, photo, print view, action, building and device route
/// answers 404 or 403, through the API and the console alike.
@Suite("Clients see their own buildings and nothing else")
struct ClientIsolationTests {
    /// The APPA form (its crew notes private) published; two clients, of F-100 and F-200.
    static func server() throws -> ServerProcess {
        let template = Fixtures.url("templates/appa-five-level.json").path
        let server = try ServerProcess(["--demo"]) { db in
            let done = try Programs.run("jqc-server", ["admin", "--db", db, "template", "publish", template])
            guard done.status == 0 else { throw ServerLaunchError(message: "publish: \(done.stderr)") }
        }
        // The demo world's sites exist once the server has started.
        for (name, site) in [("clara", "F-100"), ("colin", "F-200")] {
            let done = try Programs.run(
                "jqc-server",
                ["admin", "--db", server.databasePath, "user", "add", name, "--role", "client", "--facility", site],
                stdin: "\(name)-client-pass\n")
            guard done.status == 0 else { throw ServerLaunchError(message: "user add \(name): \(done.stderr)") }
        }
        return server
    }

    static func appa(_ site: String, notes: String) -> JSONValue {
        [
            "local_id": .string(UUID().uuidString.lowercased()), "template_id": "appa-five-level",
            "facility_id": .string(site),
            "payload": [
                "answers": ["floors": 1, "restrooms": 2, "trash": 1, "sharps": "pass", "crew_notes": .string(notes)],
                "score": 1, "follow_up_required": false,
            ],
            "issues": [],
        ]
    }

    @Test(
        "two clients and a supervisor: each client reaches their own approved reports and public actions only; every other id is 404 or 403"
    )
    func isolation() async throws {
        let server = try Self.server()
        defer { _ = server.stop() }
        let inspector = try await Session.inspector(server)
        let supervisor = try await Session.supervisor(server)
        func send(_ report: JSONValue) async throws -> String {
            try #require(try await inspector.syncOne(report)["server_id"]?.stringValue)
        }
        let mine = try await send(Self.appa("F-100", notes: "Back door code 4711 <script>window.__x=1</script>"))
        let theirs = try await send(Self.appa("F-200", notes: "Alarm code 0000"))
        let waiting = try await send(Self.appa("F-100", notes: "not yet reviewed"))
        for id in [mine, theirs] {
            let decided = try await supervisor.post("/reports/\(id)/review", ["decision": "approve", "revision": 1])
            #expect(decided.status == 200)
        }
        func action(_ site: String, _ title: String, isInternal: Bool = false) async throws -> String {
            let made = try await supervisor.post(
                "/actions",
                [
                    "id": .string(UUID().uuidString.lowercased()), "facility_id": .string(site),
                    "title": .string(title),
                    "internal": .bool(isInternal),
                ])
            return try #require(made.data["action"]?["id"]?.stringValue, "\(made.status)")
        }
        let publicHere = try await action("F-100", "Polish the lobby floor")
        let internalHere = try await action("F-100", "Talk to the night crew", isInternal: true)
        let publicThere = try await action("F-200", "Refill the soap")

        // The API, as clara.
        let clara = try await Session.login(server, "clara", "clara-client-pass")
        let facilities = try await clara.get("/facilities").data["facilities"]?.arrayValue ?? []
        #expect(facilities.map { $0["id"]?.stringValue } == ["F-100"])
        #expect(try await clara.get("/facilities/F-200/areas").status == 404)
        #expect(try await clara.get("/facilities/F-100/areas").status == 200)
        for path in ["/templates", "/assignments", "/inspections", "/rollup", "/reviews", "/reports/\(mine)"] {
            #expect(try await clara.get(path).status == 403, "\(path)")
        }
        #expect(try await clara.sync([Self.appa("F-100", notes: "x")]).status == 403)
        let feed = try await clara.get("/actions").data["actions"]?.arrayValue ?? []
        #expect(feed.map { $0["id"]?.stringValue } == [publicHere], "\(feed)")
        for id in [internalHere, publicThere] { #expect(try await clara.get("/actions/\(id)").status == 404) }
        let elsewhere = try await clara.post(
            "/actions", ["id": .string(UUID().uuidString.lowercased()), "facility_id": "F-200", "title": "Help"])
        #expect(elsewhere.status == 404)
        let overreach = try await clara.post(
            "/actions",
            [
                "id": .string(UUID().uuidString.lowercased()), "facility_id": "F-100", "title": "Now",
                "assignee": "inspector",
            ])
        #expect(overreach.status == 400)
        let requested = try await clara.post(
            "/actions",
            ["id": .string(UUID().uuidString.lowercased()), "facility_id": "F-100", "title": "Spill in the lift"])
        #expect(requested.status == 201)
        #expect(requested.data["action"]?["source"]?["kind"] == "client")
        let request = try #require(requested.data["action"]?["id"]?.stringValue)
        func update(_ id: String, _ body: [String: JSONValue]) async throws -> Int {
            var body = body
            body["id"] = .string(UUID().uuidString.lowercased())
            return try await clara.post("/actions/\(id)/updates", .object(body)).status
        }
        #expect(try await update(request, ["comment": "It is sticky"]) == 200)
        #expect(try await update(request, ["state": "done"]) == 403)
        #expect(try await update(publicHere, ["comment": "Thanks"]) == 403, "only on their own requests")
        let supervisorsList = try await supervisor.get("/actions").data["actions"]?.arrayValue ?? []
        #expect(supervisorsList.contains { $0["id"]?.stringValue == request })

        // The console, as colin, with clara's ids.
        let colin = ConsoleClient(server)
        try colin.signIn("colin", "colin-client-pass")
        let home = try colin.get("/console/buildings").text
        #expect(home.contains("Riverside Medical Centre") && !home.contains("Harbourview"), "\(home)")
        for path in [
            "/console/reports/\(mine)", "/console/reports/\(mine)/print", "/console/reports/\(waiting)",
            "/console/buildings/F-100", "/console/actions/\(publicHere)", "/console/actions/\(request)",
            "/console/sites", "/console/sites/F-100", "/console/team", "/console/rollups", "/console/admin",
            "/console/rollups/csv?by=site&month=2026-12",
            "/console/reports/\(mine)/photos/\(UUID().uuidString.lowercased())",
        ] {
            #expect(try colin.get(path).status == 404, "\(path)")
        }
        let queue = try colin.get("/console/queue").text
        #expect(!queue.contains(mine) && !queue.contains("Harbourview"))
        let own = try colin.get("/console/reports/\(theirs)")
        #expect(own.status == 200)
        #expect(!own.text.contains("Alarm code"), "a private field's answer never reaches a client")
        let actions = try colin.get("/console/actions").text
        #expect(actions.contains("Refill the soap") && !actions.contains("Polish the lobby floor"))

        // Clara's own report in the console: the private answer absent, escaped everywhere; the supervisor sees it.
        let claraBrowser = ConsoleClient(server)
        try claraBrowser.signIn("clara", "clara-client-pass")
        let page = try claraBrowser.get("/console/reports/\(mine)")
        #expect(page.status == 200 && !page.text.contains("Back door code"))
        #expect(try claraBrowser.get("/console/reports/\(waiting)").status == 404, "awaiting review")
        let sam = ConsoleClient(server)
        try sam.signIn("supervisor", "supervisor-pass")
        #expect(try sam.get("/console/reports/\(mine)").text.contains("Back door code 4711 &lt;script&gt;"))
    }
}
