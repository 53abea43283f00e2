import Foundation
import Models
import Testing
import TestSupport

/// What a newcomer met administering a server: imports that dropped a
/// misspelled column, a template's problems that came one pass at a time,
/// a one-template file refused, a refusal worded with a form field's name.
@Suite("Newcomer trial: imports, templates and reviews")
struct NewcomerTrialTests {
    /// Runs `jqc-server admin --db DB ARGUMENTS`.
    static func admin(_ db: String, _ arguments: [String]) throws -> ProcessOutcome {
        try Programs.run("jqc-server", ["admin", "--db", db] + arguments)
    }

    @Test(
        "an import naming a column it does not take is refused, naming it and the columns taken; nothing is imported"
    )
    func unknownColumnsAreRefused() throws {
        let folder = TemporaryDirectory(prefix: "newcomer-import")
        let db = folder.path("org.db")
        let files: [(String, String, [String], String)] = [
            ("sites.csv", "id,name,address,project\nS-1,North,1 Road,Depots\n", ["facilities", "import"], "'project'"),
            (
                "sites.json", #"{"facilities": [{"id": "S-1", "name": "North", "project": "Depots"}]}"#,
                ["facilities", "import"], "'project'"
            ),
            ("areas.csv", "id,facility_id,name,type\nS-1-W,S-1,Washroom,washroom\n", ["areas", "import"], "'type'"),
            (
                "work.csv", "id,inspector,template_id,facility_id,due\nW-1,ivy,t,S-1,2026-01-01\n",
                ["assignments", "import"], "'due'"
            ),
        ]
        for (name, text, command, column) in files {
            try text.write(toFile: folder.path(name), atomically: true, encoding: .utf8)
            let refused = try Self.admin(db, command + [folder.path(name)])
            #expect(refused.status == 4, "\(name): \(refused.status) \(refused.stdout)")
            #expect(refused.stderr.contains(column), "\(name): \(refused.stderr)")
            #expect(refused.stderr.contains("(optional)"), "the columns it takes: \(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        }
        #expect(try Self.admin(db, ["facilities", "--json"]).stdout.contains("\"facilities\":[]"))

        try "identifier,name\nS-1,North\n".write(toFile: folder.path("header.csv"), atomically: true, encoding: .utf8)
        let header = try Self.admin(db, ["facilities", "import", folder.path("header.csv")])
        #expect(header.status == 4)
        for words in ["no column 'id'", "id, name (required)", "address, project_name (optional)", "'identifier'"] {
            #expect(header.stderr.contains(words), "\(words): \(header.stderr)")
        }

        try "id,name,address,project_name\nS-1,North,1 Road,Depots\n".write(
            toFile: folder.path("good.csv"), atomically: true, encoding: .utf8)
        #expect(try Self.admin(db, ["facilities", "import", folder.path("good.csv")]).status == 0)
        let listed = try JSONValue.parse(try Self.admin(db, ["facilities", "--json"]).stdout)
        #expect(listed["facilities"]?.arrayValue?.first?["project_name"] == "Depots", "\(listed)")
        // A listing, read back in, imports: its retired_at is read, not refused.
        try (try Self.admin(db, ["facilities", "--json"]).stdout).write(
            toFile: folder.path("listing.json"), atomically: true, encoding: .utf8)
        let again = try Self.admin(db, ["facilities", "import", folder.path("listing.json")])
        #expect(again.status == 0 && again.stdout.contains("1 unchanged"), "\(again.stdout)\(again.stderr)")
    }

    @Test("the management API refuses an unknown column by name, with the columns it takes")
    func unknownColumnOverTheAPI() async throws {
        let server = try AdministrationContractTests.server.get()
        let admin = try await AdministrationContractTests.admin(server)
        let refused = try await admin.post(
            "/admin/facilities/import", ["csv": "id,name,project\nNC-1,Newcomer depot,Depots\n"])
        #expect(refused.status == 400)
        #expect(refused.message.contains("'project'") && refused.message.contains("project_name"), "\(refused.message)")
        let json = try await admin.post(
            "/admin/areas/import", ["areas": [["id": "NC-1-A", "facility_id": "F-100", "name": "Hall", "kind": "x"]]])
        #expect(json.status == 400)
        #expect(json.message.contains("'kind'") && json.message.contains("area_type"), "\(json.message)")
        let facilities = try await admin.get("/admin/facilities").data["facilities"]?.arrayValue ?? []
        #expect(!facilities.contains { $0["id"] == "NC-1" })
    }

    /// A template with four faults; the last field repeats an id and does not decode.
    static let fourFaults = #"""
        {"id": "four", "name": "Four faults", "form_schema": {"fields": [
          {"id": "a", "type": "text", "label": "Notes", "critical": true},
          {"id": "b", "type": "radio", "label": "Odour", "options": []},
          {"id": "c", "type": "rating", "label": "Floors"},
          {"id": "c", "type": "rating", "label": "Mirrors", "required": "yes"}
        ]}}
        """#

    @Test("publishing a template lists every problem in one pass, a repeated field id among them")
    func publishListsEveryProblem() throws {
        let folder = TemporaryDirectory(prefix: "newcomer-publish")
        try Self.fourFaults.write(toFile: folder.path("four.json"), atomically: true, encoding: .utf8)
        let refused = try Self.admin(folder.path("org.db"), ["template", "publish", folder.path("four.json")])
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("4 problems"), "\(refused.stderr)")
        #expect(refused.stderr.contains("the id is already used by field #3"), "\(refused.stderr)")
    }

    @Test("import-templates takes one template object, as publish does, and still takes a list")
    func importTakesOneTemplate() throws {
        let folder = TemporaryDirectory(prefix: "newcomer-templates")
        let db = folder.path("org.db")
        let one = #"{"id": "one", "name": "One", "form_schema": {"fields": [{"id": 1, "type": "text", "label": "A"}]}}"#
        try one.write(toFile: folder.path("one.json"), atomically: true, encoding: .utf8)
        let single = try Self.admin(db, ["import-templates", folder.path("one.json")])
        #expect(single.status == 0, "\(single.stderr)")
        #expect(single.stdout.contains("imported 1 template"), "\(single.stdout)")
        try #"{"templates": [\#(one.replacingOccurrences(of: "\"one\"", with: "\"two\""))]}"#.write(
            toFile: folder.path("list.json"), atomically: true, encoding: .utf8)
        #expect(try Self.admin(db, ["import-templates", folder.path("list.json")]).status == 0)
        let listed = try Self.admin(db, ["templates", "--json"]).stdout
        #expect(listed.contains("\"one\"") && listed.contains("\"two\""), "\(listed)")
    }

    @Test("a return with no reason says so in plain words, over the API and in the console; the code is unchanged")
    func returnWithoutReason() async throws {
        let server = try Shared.running()
        let inspector = try await Session.other(server)
        let supervisor = try await Session.supervisor(server)
        let serverID = try await ReviewContractTests.accepted(inspector)
        let refused = try await supervisor.post("/reports/\(serverID)/review", ["decision": "return", "revision": 1])
        #expect(refused.status == 400 && refused.code == "BAD_REQUEST")
        #expect(
            refused.message.contains("say why you return it: a comment, or a comment on a field"), "\(refused.message)")
        #expect(!refused.message.contains("'comment'"), "\(refused.message)")

        let browser = ConsoleClient(server)
        try browser.signIn("supervisor", "supervisor-pass")
        let page = try browser.post(
            "/console/reports/\(serverID)/review",
            [("csrf", try browser.csrf()), ("decision", "reject"), ("revision", "1"), ("comment", " ")])
        #expect(page.status == 400)
        #expect(page.text.contains("Say why you reject it: a comment, or a comment on a field."), "the console's words")
    }
}
