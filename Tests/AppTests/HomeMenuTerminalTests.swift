import Foundation
import Testing
import TestSupport

@Suite("jqc with no command: the home menu in a real terminal", .serialized)
struct HomeMenuTerminalTests {
    let environment = ["LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "xterm"]

    /// Runs the menu in an 80x24 terminal; when it ends, the shell says how it exited and waits.
    func menu(_ profile: DemoProfile) throws -> Terminal {
        let command =
            "sh -c '\(Programs.path("jqc")) --home \(profile.home); echo menu exited with \\$?; exec sleep 60'"
        return try Terminal(command, environment: environment)
    }

    /// The number shown before the item whose line contains `text`.
    func number(of text: String, on screen: String) throws -> String {
        for line in screen.split(separator: "\n") where line.contains(text) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let close = trimmed.firstIndex(of: ")"), Int(trimmed[..<close]) != nil {
                return String(trimmed[..<close])
            }
        }
        throw MenuTestError(message: "no numbered item '\(text)' on:\n\(screen)")
    }

    @Test("from the home screen: pick assignment AS-2, answer it in the runner, complete it, see it pending, quit")
    func assignmentToPending() throws {
        let profile = try DemoProfile()
        let terminal = try menu(profile)
        let home = try terminal.waitFor("Assignments to do (3)")
        #expect(home.contains("2) Drafts to resume (0)"))
        #expect(home.contains("3) Pending sync (0)"))
        #expect(home.contains("5) Facilities (3)"))
        #expect(home.contains("q) quit"))
        #expect(home.contains("not signed in · 0 pending · 0 conflicts · 0 failed"))

        try terminal.type("1")
        let assignments = try terminal.waitFor("Lobby walkthrough")
        #expect(assignments.contains("Harbourview Office Tower"))
        #expect(assignments.contains("not started"))
        try terminal.type(try number(of: "Lobby walkthrough", on: assignments))

        try terminal.answerFields(["pass", "5", "2", "no", "All good"], of: 5)
        try terminal.waitFor("End of form")
        try terminal.type("/done")

        let report = try terminal.waitFor("n) re-inspect")
        #expect(report.contains("PENDING"))
        #expect(report.contains("is complete (PENDING); it uploads at the next sync."))
        try terminal.type("b")
        let after = try terminal.waitFor("Assignments to do")
        #expect(!after.contains("Lobby walkthrough"), "a completed assignment is no longer to do")
        try terminal.type("b")
        let back = try terminal.waitFor("3) Pending sync (1)")
        #expect(back.contains("1) Assignments to do (2)"))
        #expect(back.contains("not signed in · 1 pending · 0 conflicts · 0 failed"))
        try terminal.type("q")
        try terminal.waitFor("menu exited with 0")

        let list = try profile.json(["list"])
        let reports = list["reports"] as? [[String: Any]] ?? []
        #expect(reports.count == 1)
        let id = try #require(reports.first?["local_id"] as? String)
        let shown = try profile.json(["show", id])
        #expect(shown["state"] as? String == "PENDING")
        #expect(shown["assignment_id"] as? String == "AS-2")
        let answers = shown["answers"] as? [String: Any] ?? [:]
        #expect(answers["entrance"] as? String == "pass")
        #expect(answers["glass"] as? Int == 5)
        #expect(answers["seating"] as? String == "Needs attention")
        #expect(answers["hazards"] as? Bool == false)
        #expect(answers["notes"] as? String == "All good")
    }

    @Test("Settings: change photo-quality to 70; 'jqc settings' agrees; a bad value is refused and the menu stays")
    func changeSetting() throws {
        let profile = try DemoProfile()
        let terminal = try menu(profile)
        let home = try terminal.waitFor("7) Settings")
        try terminal.type(try number(of: "Settings", on: home))
        let settings = try terminal.waitFor("photo-quality")
        let item = try number(of: "photo-quality", on: settings)
        try terminal.type(item)
        try terminal.waitFor("New photo-quality (1-100, now 80")
        try terminal.type("700")
        try terminal.waitFor("! '700' is not a valid photo-quality")
        try terminal.type(item)
        try terminal.waitFor("New photo-quality")
        try terminal.type("70")
        try terminal.waitFor("photo-quality is now 70")
        try terminal.type("q")
        try terminal.waitFor("menu exited with 0")
        let shown = try profile.json(["settings"])
        #expect(shown["photo_quality"] as? Int == 70)
    }

    @Test("an invalid choice says what is valid and the screen stays")
    func invalidChoice() throws {
        let profile = try DemoProfile()
        let terminal = try menu(profile)
        try terminal.waitFor("Assignments to do (3)")
        try terminal.type("12")
        let screen = try terminal.waitFor("There is no 12 here; type a number from 1 to 11 or q.")
        #expect(screen.contains("Assignments to do (3)"))
        try terminal.type("6")
        let history = try terminal.waitFor("Reports still on this device are under All reports.")
        #expect(
            history.contains(
                "Sign in with 'jqc login --server URL --username NAME' first; nothing on this\ndevice was lost."))
        try terminal.type("q")
        try terminal.waitFor("menu exited with 0")
    }

    @Test(
        "assignments to do are listed by due date; starting from a template where two are due asks which, and the one picked is taken"
    )
    func startAsksWhichAssignment() throws {
        let profile = try AssignmentPickTests.profile([
            ("AS-ONE", "F-200", nil, -1), ("AS-TWO", "F-200", nil, -2), ("AS-LATER", "F-200", nil, 24 * 3),
        ])
        let terminal = try menu(profile)
        let home = try terminal.waitFor("Assignments to do (6)")
        try terminal.type(try number(of: "Assignments to do", on: home))
        let todo = try terminal.waitFor("Riverside Medical Centre")
        let dues = todo.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /\d{4}-\d{2}-\d{2} \d{2}:\d{2}/).map { String($0.output) }
        }
        #expect(dues.count == 3, "the three with a due time, shown whole:\n\(todo)")
        #expect(dues == dues.sorted(), "the assignments to do, soonest due first:\n\(todo)")
        try terminal.type("b")
        let back = try terminal.waitFor("Start from a template")
        try terminal.type(try number(of: "Start from a template", on: back))
        try terminal.type(try number(of: "Lobby walkthrough", on: try terminal.waitFor("Step 1 of 3")))
        try terminal.type(try number(of: "Riverside Medical Centre", on: try terminal.waitFor("Step 2 of 3")))
        try terminal.waitFor("Step 3 of 3")
        try terminal.type("n")
        let which = try terminal.waitFor("Which assignment is this for?")
        #expect(which.contains("2 open assignments match this inspection."))
        #expect(which.contains("AS-ONE") && which.contains("AS-TWO") && !which.contains("AS-LATER"), "\(which)")
        #expect(
            try number(of: "AS-TWO", on: which) < (try number(of: "AS-ONE", on: which)),
            "the one overdue longest first:\n\(which)")
        try terminal.type(try number(of: "AS-ONE", on: which))
        try terminal.waitFor("Field 1 of 5")
        try terminal.type("/q")
        let list = try profile.json(["list"])
        let reports = list["reports"] as? [[String: Any]] ?? []
        #expect(reports.count == 1)
        let id = try #require(reports.first?["local_id"] as? String)
        #expect(try profile.json(["show", id])["assignment_id"] as? String == "AS-ONE")
    }

    @Test("not on a terminal, jqc with no command prints the command overview and exits 0")
    func notATerminal() throws {
        let bare = try Programs.run("jqc", [], stdin: "1\nq\n")
        #expect(bare.status == 0)
        #expect(bare.stdout.hasPrefix("Usage: jqc <command> [arguments] [options]"))
        #expect(!bare.stdout.contains("Assignments to do"))
        let profile = try DemoProfile()
        let withHome = try profile.jqc([], stdin: "1\n")
        #expect(withHome.status == 0, "\(withHome.stderr)")
        #expect(withHome.stdout.hasPrefix("Usage: jqc <command>"))
    }

    @Test("History reads the server's completed inspections, signed in; a synced report is listed")
    func historyFromServer() throws {
        let server = try ServerProcess(["--demo"])
        defer { _ = server.stop() }
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        try #require(try profile.jqc(["complete", id]).status == 0)
        try #require(try profile.jqc(["sync"]).status == 0)
        let terminal = try menu(profile)
        let home = try terminal.waitFor("Settings")
        try terminal.type(try number(of: "History", on: home))
        let screen = try terminal.waitFor("1-1 of 1 on the server.")
        #expect(screen.contains("Washroom QC"))
        #expect(screen.contains("Ivy Inspector"))
        try terminal.type("q")
        try terminal.waitFor("menu exited with 0")
    }
}

/// A menu test could not find what it looked for on the screen.
struct MenuTestError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
