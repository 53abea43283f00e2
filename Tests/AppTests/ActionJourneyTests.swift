import FieldTypes
import Foundation
import Models
import Storage
import Testing
import TestSupport
@testable import JQCApp
import JQCCore

/// Corrective actions through the real programs (contract 1.2): an issue
/// flagged on a report becomes an action on the server; a supervisor gives
/// it to a crew member from `jqc`; the crew member, offline, starts and
/// finishes it; the inspector who flagged it verifies it. Every change is
/// queued on its device and sent at the next sync, once.
@Suite("Corrective actions on the device")
struct ActionJourneyTests {
    /// The demo server with a crew member, crewcora (password "crewcora-pass").
    static func server() throws -> ServerProcess {
        try ServerProcess(["--demo"]) { db in
            let added = try Programs.run(
                "jqc-server", ["admin", "--db", db, "user", "add", "crewcora", "--role", "crew"],
                stdin: "crewcora-pass\n")
            guard added.status == 0 else { throw ServerLaunchError(message: "user add: \(added.stderr)") }
        }
    }

    /// `jqc ARGUMENTS --json` on `profile`, which must succeed.
    static func json(_ profile: DemoProfile, _ arguments: [String]) throws -> JSONValue {
        let (status, value) = try profile.document(arguments)
        try #require(status == 0, "\(arguments): \(value)")
        return value
    }

    /// The home menu on `profile` with these lines as input, then end of input; everything it wrote.
    func menu(_ lines: [String], profile: DemoProfile) async throws -> [String] {
        try await ScriptedMenu.run(lines, profile: profile).output
    }

    @Test(
        "an inspector's critical issue becomes an action; a supervisor assigns it; crew work it offline; the inspector verifies it; the thread holds every step, each once"
    )
    func wholeLoop() async throws {
        let server = try Self.server()
        defer { _ = server.stop() }
        let inspector = try DemoProfile.signedIn(to: server.baseURL)
        let local = try inspector.startDraft()
        try inspector.answerRequired(local)
        // Flagged from the runner, without leaving the form.
        let flagged = try inspector.jqc(["run", local], stdin: "/issue critical Urinal flush valve stuck open\n/q\n")
        #expect(flagged.status == 0, "\(flagged.stderr)")
        #expect(flagged.stdout.contains("flagged"), "\(flagged.stdout)")
        #expect(try inspector.document(["issues"]).value["issues"]?.arrayValue?.count == 1)
        #expect(try inspector.jqc(["complete", local]).status == 0)
        #expect(try inspector.jqc(["sync"]).status == 0)
        #expect(try inspector.jqc(["sync"]).status == 0, "a second cycle makes no second action")

        let supervisor = try DemoProfile.signedIn(to: server.baseURL, as: "supervisor")
        let synced = try Self.json(supervisor, ["sync"])
        #expect(synced["actions"]?["pulled"]?.integerValue ?? 0 >= 1, "\(synced)")
        let listed = try Self.json(supervisor, ["actions", "--state", "open"])["actions"]?.arrayValue ?? []
        let action = try #require(listed.first { $0["title"] == "Urinal flush valve stuck open" })
        #expect(listed.filter { $0["title"] == "Urinal flush valve stuck open" }.count == 1)
        let id = try #require(action["id"]?.stringValue)
        #expect(action["severity"] == "critical" && action["source"]?["kind"] == "issue")
        let assigned = try supervisor.jqc(["action", "assign", String(id.prefix(8)), "crewcora", "--due", "2030-01-31"])
        #expect(assigned.status == 0, "\(assigned.stderr)")
        #expect(assigned.stdout.contains("It is sent at the next sync"))
        #expect(try supervisor.jqc(["sync"]).status == 0)

        let cora = try DemoProfile.signedIn(to: server.baseURL, as: "crewcora")
        #expect(try cora.jqc(["sync"]).status == 0)
        let mine = try Self.json(cora, ["actions", "--mine"])["actions"]?.arrayValue ?? []
        #expect(mine.map { $0["id"]?.stringValue } == [id])
        #expect(try Self.json(cora, ["status"])["actions_open"] == 1)
        let metrics = cora.path("jqc.prom")
        #expect(try cora.agent(["run", "--once", "--metrics-file", metrics]).status == 0)
        let exposition = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(exposition.contains("jqc_actions_open 1\n") && exposition.contains("jqc_actions_overdue 0\n"))
        // Offline: both changes wait on the device, in order.
        try cora.route(to: "http://127.0.0.1:9")
        #expect(try cora.jqc(["action", "start", id]).status == 0)
        let valve = try cora.writeJPEG("valve.jpg")
        let doneWithPhoto = try Self.json(
            cora, ["action", "done", id, "--comment", "New valve fitted", "--photo", valve])
        #expect(doneWithPhoto["queued"]?["photos"]?.arrayValue?.count == 1, "\(doneWithPhoto)")
        let photoID = try #require(doneWithPhoto["queued"]?["photos"]?.arrayValue?.first?["local_id"]?.stringValue)
        let missing = try cora.jqc(["action", "comment", id, "Spare part", "--photo", cora.path("nowhere.jpg")])
        #expect(missing.status != 0 && missing.stderr.contains("nowhere.jpg"), "\(missing.stderr)")
        let refusedVerify = try cora.jqc(["action", "verify", id])
        #expect(refusedVerify.status == 5, "crew never verify: \(refusedVerify.stderr)")
        let offline = try cora.jqc(["sync"])
        #expect(offline.status == 75, "\(offline.stdout)\(offline.stderr)")
        let waiting = try Self.json(cora, ["action", "show", id])
        #expect(waiting["queued"]?.arrayValue?.count == 2)
        try cora.route(to: server.baseURL)
        let sent = try Self.json(cora, ["sync"])
        #expect(sent["actions"]?["sent"] == 2, "\(sent)")
        #expect(sent["actions"]?["photos_sent"] == 1, "the photo goes once its change is recorded: \(sent)")
        #expect(try Self.json(cora, ["sync"])["actions"]?["photos_sent"] == 0, "and only once")
        #expect(try Self.json(cora, ["action", "show", id])["action"]?["state"] == "done")

        #expect(try inspector.jqc(["sync"]).status == 0)
        #expect(try inspector.jqc(["action", "verify", id, "--comment", "Checked: no leak"]).status == 0)
        #expect(try inspector.jqc(["sync"]).status == 0)
        let shown = try Self.json(inspector, ["action", "show", id])["action"] ?? .null
        #expect(shown["state"] == "verified")
        let updates = shown["updates"]?.arrayValue ?? []
        #expect(updates.map { $0["state"]?.stringValue ?? "-" } == ["-", "in_progress", "done", "verified"])
        #expect(
            updates.map { $0["author"]?["username"]?.stringValue ?? "" } == [
                "supervisor", "crewcora", "crewcora", "inspector",
            ])
        #expect(updates[2]["comment"] == "New valve fitted")
        #expect(updates[2]["photos"]?.arrayValue?.map { $0["local_id"]?.stringValue } == [photoID])
        let http = HTTPTestClient()
        let login = try await http.send(
            "POST", server.url("/auth/login"), json: ["username": "inspector", "password": "inspector-pass"])
        let token = try JSONValue.parse(String(decoding: login.body, as: UTF8.self))["data"]?["access_token"]?
            .stringValue
        let served = try await http.send("GET", server.url("/actions/\(id)/photos/\(photoID)"), token: token)
        #expect(served.status == 200 && served.body.starts(with: [0xFF, 0xD8]), "the inspector sees the crew's photo")
        // The report shows the action its issue became.
        let report = try Self.json(inspector, ["show", local])
        #expect(report["actions"]?.arrayValue?.map { $0["state"]?.stringValue } == ["verified"])
        #expect(try inspector.jqc(["show", local]).stdout.contains("Corrective actions: 1"))
    }

    @Test(
        "a move the action's state no longer allows is refused at the sync: the device shows the action as it stands and sends the words as a comment"
    )
    func staleMoveKeepsTheComment() async throws {
        let server = try Self.server()
        defer { _ = server.stop() }
        let supervisor = try DemoProfile.signedIn(to: server.baseURL, as: "supervisor")
        #expect(try supervisor.jqc(["sync"]).status == 0)
        let made = try supervisor.jqc(
            ["action", "new", "--facility", "F-100", "--title", "Descale the kettle", "--assignee", "crewcora"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try supervisor.jqc(["sync"]).status == 0)
        let cora = try DemoProfile.signedIn(to: server.baseURL, as: "crewcora")
        #expect(try cora.jqc(["sync"]).status == 0)
        let id = try #require(
            try Self.json(cora, ["actions"])["actions"]?.arrayValue?.first?["id"]?.stringValue)
        // On the home menu: My actions, the action, c) a comment.
        let output = try await menu(["11", "1", "c", "On my way", "b", "q"], profile: cora)
        #expect(output.contains { $0.hasPrefix(" 11) My actions (1)") }, "\(output)")
        #expect(output.contains { $0.contains("Descale the kettle") })
        #expect(try Self.json(cora, ["action", "show", id])["queued"]?.arrayValue?.count == 1)
        #expect(try cora.jqc(["action", "done", id]).status == 0)
        #expect(try cora.jqc(["sync"]).status == 0)
        // Cora's device, before it hears of anything else, queues another finish with words for the supervisor.
        #expect(try cora.jqc(["action", "done", id, "--comment", "Kettle now spotless"]).status == 0)
        let answered = try Self.json(cora, ["sync"])
        #expect(answered["actions"]?["refused"] == 1, "\(answered)")
        #expect(answered["actions"]?["sent"] == 1, "the words, sent as a comment: \(answered)")
        let shown = try Self.json(cora, ["action", "show", id])
        #expect(shown["queued"]?.arrayValue?.first?["refusal"]?.stringValue?.contains("done now") == true)
        let updates = shown["action"]?["updates"]?.arrayValue ?? []
        #expect(updates.last?["comment"] == "Kettle now spotless" && updates.last?["state"] == nil)
    }
    @Test("an action's hostile title and comment reach the terminal sanitised: no escape sequence, no bell")
    func hostileTextOnTheTerminal() async throws {
        let server = try Self.server()
        defer { _ = server.stop() }
        let http = HTTPTestClient()
        let login = try await http.send(
            "POST", server.url("/auth/login"), json: ["username": "supervisor", "password": "supervisor-pass"])
        let token = try JSONValue.parse(String(decoding: login.body, as: UTF8.self))["data"]?["access_token"]?
            .stringValue
        let made = try await http.send(
            "POST", server.url("/actions"),
            json: [
                "id": .string(UUID().uuidString.lowercased()), "facility_id": "F-100", "assignee": "crewcora",
                "title": "Mop \u{1B}[2J\u{1B}[31mthe hall\u{07}", "severity": "high",
            ], token: token)
        let id = try #require(
            try JSONValue.parse(String(decoding: made.body, as: UTF8.self))["data"]?["action"]?["id"]?.stringValue)
        let commented = try await http.send(
            "POST", server.url("/actions/\(id)/updates"),
            json: ["id": .string(UUID().uuidString.lowercased()), "comment": "Done \u{1B}]0;owned\u{07} soon"],
            token: token)
        #expect(commented.status == 200)

        let cora = try DemoProfile.signedIn(to: server.baseURL, as: "crewcora")
        #expect(try cora.jqc(["sync"]).status == 0)
        for arguments in [["actions"], ["action", "show", id]] {
            let shown = try cora.jqc(arguments)
            #expect(shown.status == 0, "\(arguments): \(shown.stderr)")
            #expect(shown.stdout.contains("the hall"), "\(arguments): \(shown.stdout)")
            #expect(
                !shown.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" },
                "\(arguments) wrote a control character to the terminal")
        }
    }
}
