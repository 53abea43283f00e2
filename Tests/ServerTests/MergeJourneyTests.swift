import Foundation
import Models
import Testing
import TestSupport

/// Disjoint edits through the real programs (contract 1.1 merges): a
/// supervisor corrects one field on the server while the inspector amends
/// another offline; `jqc sync` ends with both, with no person asked. In the
/// server suite, so it runs on both stores (CI runs that suite again on PostgreSQL).
@Suite("Merging disjoint edits: jqc and jqc-server", .serialized)
struct MergeJourneyTests {
    static let demo: Result<ServerProcess, any Error> = Result { try ServerProcess(["--demo"]) }

    /// A synced lobby report and its server id.
    func syncedLobbyReport(_ profile: DemoProfile) throws -> (String, String) {
        let id = try profile.start(["--template", "lobby-walk", "--facility", "F-100"])
        for (field, answer) in [("entrance", "pass"), ("glass", "4"), ("notes", "fine")] {
            try #require(try profile.jqc(["answer", id, field, answer]).status == 0)
        }
        try #require(try profile.jqc(["complete", id]).status == 0)
        try #require(try profile.jqc(["sync"]).status == 0)
        return (id, try #require(try profile.show(id)["server_id"]?.stringValue))
    }

    func amend(_ profile: DemoProfile, _ id: String, _ field: String, _ answer: String) throws {
        try #require(try profile.jqc(["amend", id]).status == 0)
        try #require(try profile.jqc(["answer", id, field, answer]).status == 0)
        try #require(try profile.jqc(["complete", id]).status == 0)
    }

    @Test(
        "the server's change of one field and the device's of another both stay, on the server and on the device; sync says what merged, show marks it"
    )
    func disjoint() async throws {
        let server = try Self.demo.get()
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let (id, serverID) = try syncedLobbyReport(profile)
        let edit = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "edit-report", serverID, "--answer", "glass=2"])
        try #require(edit.status == 0, "\(edit.stderr)")
        try amend(profile, id, "notes", "cracked pane by the door")

        let sync = try profile.jqc(["sync"])
        #expect(sync.status == 0, "no person is asked: \(sync.stdout)\(sync.stderr)")
        #expect(sync.stdout.contains("1 report merged with the server's changes (field glass)"), "\(sync.stdout)")
        let shown = try profile.show(id)
        #expect(shown["state"] == "SYNCED")
        #expect(shown["answers"]?["glass"] == 2, "the supervisor's correction")
        #expect(shown["answers"]?["notes"] == "cracked pane by the door", "the inspector's amendment")
        #expect(shown["merged_fields"] == ["glass"])
        #expect(shown["base_revision"] == 3)
        let text = try profile.jqc(["show", id])
        #expect(text.stdout.contains("Merged with the server's changes: field glass"), "\(text.stdout)")
        let glassLine = text.stdout.split(separator: "\n").first { $0.contains("Glass and doors") }
        #expect(glassLine?.contains("(from the server)") == true, "\(text.stdout)")
        let html = profile.path("merged.html")
        #expect(try profile.jqc(["export", id, "--format", "html", "-o", html]).status == 0)
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("from the server</span>"))

        // The server holds the same merged revision.
        let client = HTTPTestClient()
        let login = try await client.send(
            "POST", server.url("/auth/login"), json: ["username": "supervisor", "password": "supervisor-pass"])
        let token = try #require(login.data["access_token"]?.stringValue)
        let stored = try await client.send("GET", server.url("/reports/\(serverID)"), token: token).data["report"]
        #expect(stored?["revision"] == 3)
        #expect(stored?["payload"]?["answers"]?["glass"] == 2)
        #expect(stored?["payload"]?["answers"]?["notes"] == "cracked pane by the door")
        // A second sync has nothing left to do.
        #expect(try profile.jqc(["sync"]).status == 0)
        #expect(try profile.show(id)["answers"]?["glass"] == 2)
    }

    @Test(
        "both sides changing one field is a CONFLICT on that field only: diff asks about it alone, resolve takes the rest as merged"
    )
    func sameField() throws {
        let server = try Self.demo.get()
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let (id, serverID) = try syncedLobbyReport(profile)
        let edit = try Programs.run(
            "jqc-server",
            [
                "admin", "--db", server.databasePath, "edit-report", serverID,
                "--answer", "glass=2", "--answer", #"entrance="fail""#,
            ])
        try #require(edit.status == 0, "\(edit.stderr)")
        try #require(try profile.jqc(["amend", id]).status == 0)
        try #require(try profile.jqc(["answer", id, "glass", "5"]).status == 0)
        try #require(try profile.jqc(["answer", id, "notes", "spotless"]).status == 0)
        try #require(try profile.jqc(["complete", id]).status == 0)

        let sync = try profile.jqc(["sync"])
        #expect(sync.status == 7, "\(sync.stdout)\(sync.stderr)")
        #expect(try profile.show(id)["state"] == "CONFLICT")
        let (_, diff) = try profile.document(["diff", id])
        let fields = diff["fields"]?.arrayValue ?? []
        let open = fields.filter { $0["differs"] == true && $0["merged"] == .null }.compactMap {
            $0["field_id"]?.stringValue
        }
        #expect(open == ["glass"], "\(diff)")
        #expect(fields.first { $0["field_id"] == "entrance" }?["merged"] == "server")
        #expect(fields.first { $0["field_id"] == "notes" }?["merged"] == "mine")

        // Choosing the one open field is enough.
        let resolved = try profile.jqc(["resolve", id, "--pick", "glass=mine"])
        #expect(resolved.status == 0, "\(resolved.stdout)\(resolved.stderr)")
        let shown = try profile.show(id)
        #expect(shown["answers"]?["glass"] == 5)
        #expect(shown["answers"]?["entrance"] == "fail", "the server's change, merged")
        #expect(shown["answers"]?["notes"] == "spotless", "mine, merged")
        #expect(try profile.jqc(["sync"]).status == 0)
        #expect(try profile.show(id)["state"] == "SYNCED")
    }
}
