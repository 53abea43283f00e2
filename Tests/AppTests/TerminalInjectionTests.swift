import Foundation
import JQCApp
import Models
import Testing
import TestSupport

/// Text from a hostile or compromised server holding terminal control
/// sequences (a window retitle, a screen clear, CR, BS, a right-to-left
/// override, NUL), through the real programs: a real `jqc-server --demo`
/// holds a template, a facility, an area and a user's display name made of
/// them, and `jqc` shows each with its visible characters and none of its
/// control characters, in every human output; `--json` keeps the text
/// exact. What a real server never sends (a hostile server id, rejection
/// text, template id, error text) comes from a `CannedHTTPServer`.
///
/// The admin commands refuse control characters in a name (they let U+202E
/// through): the template is published as it is (labels and names are not
/// checked), and the rest of each name is written with SQL into the server's
/// SQLite file, as a compromised server's database would hold it.
@Suite("Terminal control sequences from a hostile server never reach the terminal")
struct TerminalInjectionTests {
    /// `head` and `tail` around everything a terminal would act on: a window
    /// retitle (OSC 0 ... BEL), a screen clear, CR, BS, U+202E and NUL.
    static func hostile(_ head: String, _ tail: String) -> String {
        "\(head)\u{1B}]0;pwned\u{07} \(tail)\u{1B}[2J\r\u{08}\u{202E}\u{0}!"
    }

    static let templateName = hostile("Trap", "Snare")
    static let facilityName = hostile("Harm", "Hall")
    static let areaName = hostile("Dark", "Room")
    static let displayName = hostile("Eve", "Mallory")

    /// A published template: a critical pass/fail, a section shown only when it passes, a text field in it.
    static let template: JSONValue = [
        "id": "T-EVIL", "name": .string(templateName), "version": 1,
        "form_schema": [
            "fields": [
                [
                    "id": "gate", "type": "pass_fail", "label": .string(hostile("Gate", "Check")), "required": true,
                    "critical": true,
                ],
                [
                    "id": "sec", "type": "section", "label": .string(hostile("Sec", "Part")),
                    "visible_when": ["field": "gate", "op": "eq", "value": "pass"],
                ],
                ["id": "note", "type": "text", "label": .string(hostile("Note", "Text"))],
            ]
        ],
    ]

    /// `text` as an SQLite expression: printable ASCII quoted, every other character `char(N)`.
    static func sql(_ text: String) -> String {
        text.unicodeScalars.map { (0x20..<0x7F).contains($0.value) && $0 != "'" ? "'\($0)'" : "char(\($0.value))" }
            .joined(separator: " || ")
    }

    /// The demo server holding the hostile names; user `mallory` (password `mallory-password`) is an inspector.
    static let world: Result<ServerProcess, any Error> = Result {
        // SQLite whatever the run's store: the names are finished with SQL on its file.
        let server = try ServerProcess(["--demo"], sqlite: true)
        let db = server.databasePath
        func admin(_ arguments: [String], stdin: String? = nil) throws {
            let outcome = try Programs.run("jqc-server", ["admin", "--db", db] + arguments, stdin: stdin)
            guard outcome.status == 0 else { throw ServerLaunchError(message: "admin \(arguments): \(outcome.stderr)") }
        }
        let file = server.directory.path("hostile-template.json")
        try template.canonicalData().write(to: URL(fileURLWithPath: file))
        try admin(["publish-template", file])
        try admin(["add-facility", "F-EVIL", "--name", "Harm\u{202E} Hall"])
        try admin(["add-area", "A-EVIL", "--facility", "F-EVIL", "--name", "Dark\u{202E} Room"])
        try admin(
            ["add-user", "mallory", "--role", "inspector", "--display-name", "Eve\u{202E} Mallory"],
            stdin: "mallory-password\n")
        try ServerDatabases.query(db, "UPDATE facilities SET name = \(sql(facilityName)) WHERE id = 'F-EVIL'")
        try ServerDatabases.query(db, "UPDATE areas SET name = \(sql(areaName)) WHERE id = 'A-EVIL'")
        try ServerDatabases.query(db, "UPDATE users SET display_name = \(sql(displayName)) WHERE username = 'mallory'")
        return server
    }

    /// The names of the control characters of the hostile text found in `text`.
    static func hazards(in text: String) -> [String] {
        let names: [(Unicode.Scalar, String)] = [
            ("\u{1B}", "ESC"), ("\u{07}", "BEL"), ("\r", "CR"), ("\u{08}", "BS"),
            ("\u{0}", "NUL"), ("\u{202E}", "U+202E"),
        ]
        return names.filter { text.unicodeScalars.contains($0.0) }.map(\.1)
    }

    /// What a person would see go wrong: a control character of the hostile
    /// text on stdout or stderr (output to a pipe has no colour of its own),
    /// or a word of a name missing from what is shown.
    func expectShown(
        _ outcome: ProcessOutcome, _ command: String, _ words: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let text = outcome.stdout + outcome.stderr
        #expect(
            Self.hazards(in: text).isEmpty,
            "'jqc \(command)' wrote \(Self.hazards(in: text)): \(text.debugDescription)",
            sourceLocation: sourceLocation)
        for word in words {
            #expect(
                text.contains(word), "'jqc \(command)' shows '\(word)': \(text.debugDescription)",
                sourceLocation: sourceLocation)
        }
    }

    /// A demo profile signed in to the hostile server as mallory, synced.
    func mallory() throws -> (DemoProfile, login: ProcessOutcome) {
        let profile = try DemoProfile()
        let login = try profile.jqc(
            ["login", "--server", try Self.world.get().baseURL, "--username", "mallory", "--password-stdin"],
            stdin: "mallory-password\n")
        try #require(login.status == 0, "login: \(login.stderr)")
        let sync = try profile.jqc(["sync"])
        try #require(sync.status == 0, "sync: \(sync.stdout)\(sync.stderr)")
        expectShown(sync, "sync", ["Pulled"])
        return (profile, login)
    }

    @Test(
        "login, whoami, facilities, areas and templates show the server's names without their control characters; --json keeps them exact"
    )
    func referenceNames() throws {
        let (profile, login) = try mallory()
        expectShown(login, "login", ["Eve", "Mallory"])
        expectShown(try profile.jqc(["whoami"]), "whoami", ["Eve", "Mallory"])
        expectShown(try profile.jqc(["facilities"]), "facilities", ["Harm", "Hall", "F-EVIL"])
        expectShown(try profile.jqc(["areas", "F-EVIL"]), "areas", ["Dark", "Room"])
        expectShown(try profile.jqc(["templates"]), "templates", ["Trap", "Snare", "T-EVIL"])

        // JSON escapes control characters itself: the documents carry each string exactly.
        #expect(try profile.document(["whoami"]).value["user"]?["display_name"]?.stringValue == Self.displayName)
        let facilities = try #require(try profile.document(["facilities"]).value["facilities"]?.arrayValue)
        #expect(facilities.first { $0["id"] == "F-EVIL" }?["name"]?.stringValue == Self.facilityName)
        let templates = try #require(try profile.document(["templates"]).value["templates"]?.arrayValue)
        #expect(templates.first { $0["id"] == "T-EVIL" }?["name"]?.stringValue == Self.templateName)
    }

    @Test(
        "a report on the hostile template at the hostile facility: start, answer, explain, run, show, list, sync and history show every name without its control characters"
    )
    func reportJourney() throws {
        let (profile, _) = try mallory()
        let start = try profile.jqc(["start", "--template", "T-EVIL", "--facility", "F-EVIL", "--area", "A-EVIL"])
        expectShown(start, "start", ["Trap", "Snare"])
        let id = try #require(
            start.stdout.split(whereSeparator: \.isWhitespace).first { $0.count == 37 && $0.hasSuffix(".") }
                .map { String($0.dropLast()) }, "\(start.stdout)")

        expectShown(try profile.jqc(["answer", id, "gate", "fail"]), "answer", ["Gate", "Check"])
        // The note's section is hidden: the reason names the section by its label.
        expectShown(
            try profile.jqc(["explain", id, "note"]), "explain", ["Note", "Text", "Sec", "Part", "hidden by condition"])

        // Fail the critical field again, look at the hidden field, go back, pass it, answer the note, complete.
        let run = try profile.jqc(["run", id], stdin: "fail\n/jump note\n/b\npass\nAll clear\n/done\n")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        expectShown(
            run, "run",
            [
                "Trap", "Snare", "Gate", "Check", "is critical", "Sec", "Part", "Note", "Text", "hidden by condition",
                "Completed",
            ])

        expectShown(
            try profile.jqc(["show", id]), "show",
            [
                "Trap", "Snare", "Harm", "Hall", "Dark", "Room", "Gate", "Check",
                "Sec", "Part", "Note", "Text", "All clear",
            ])
        expectShown(try profile.jqc(["list"]), "list", ["Trap", "Snare", "F-EVIL"])
        let shown = try profile.show(id)
        #expect(shown["template_name"]?.stringValue == Self.templateName, "--json keeps the name exact")

        let sync = try profile.jqc(["sync"])
        #expect(sync.status == 0, "\(sync.stdout)\(sync.stderr)")
        expectShown(sync, "sync", ["1 accepted"])
        expectShown(try profile.jqc(["history"]), "history", ["Trap", "Snare", "Harm", "Hall", "Eve", "Mallory"])
        let serverID = try #require(try profile.show(id)["server_id"]?.stringValue)

        // A supervisor reads the report from the server (this device does not hold it) and the team's history.
        let supervisor = try DemoProfile.signedIn(to: try Self.world.get().baseURL, as: "supervisor")
        #expect(try supervisor.jqc(["sync"]).status == 0)
        let read = try supervisor.jqc(["show", serverID])
        #expect(read.status == 0, "\(read.stderr)")
        expectShown(
            read, "show SERVER_ID",
            ["Read from the server", "Trap", "Snare", "Harm", "Hall", "Dark", "Room", "Gate", "Check"])
        expectShown(
            try supervisor.jqc(["history", "--facility", "F-EVIL"]), "history (supervisor)",
            ["Eve", "Mallory", serverID])
    }

    @Test("show on a colour terminal keeps its own colours and shows the hostile names as text, the screen not cleared")
    func colourTerminal() throws {
        let (profile, _) = try mallory()
        let id = try profile.start(["--template", "T-EVIL", "--facility", "F-EVIL"])
        #expect(try profile.jqc(["answer", id, "gate", "pass"]).status == 0)
        let terminal = try Terminal(
            "sh -c '\(Programs.path("jqc")) --home \(profile.home) show \(id); sleep 30'",
            width: 120, height: 40, environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])
        // The status line comes last: by then the whole report is on the screen, unless something cleared it.
        let screen = try terminal.waitFor(" pending · ")
        #expect(
            screen.contains("Report \(id)") && screen.contains("Score:"),
            "the whole report is on the screen: nothing cleared it: \(screen)")
        #expect(screen.contains("Trap]0;pwned Snare") && screen.contains("Gate]0;pwned Check"), "\(screen)")
        #expect(screen.contains("\u{2713} pass"), "\(screen)")
        #expect(
            !screen.contains("[32m") && !screen.contains("[0m"), "our colour codes are not shown as text: \(screen)")
        #expect(try terminal.screen(escapes: true).contains("\u{1B}[32m"), "the pass is green")
    }

    @Test(
        "from a canned server: a hostile display name, template id, server id, rejection and error text are shown without their control characters"
    )
    func cannedServer() throws {
        func ok(_ data: JSONValue) -> Data {
            CannedHTTPServer.response(
                status: 200, contentType: "application/json",
                JSONValue.object(["ok": true, "data": data]).canonicalString())
        }
        let profile = try DemoProfile()
        var ids: [String] = []
        for _ in 0..<2 {
            let id = try profile.startDraft()
            try profile.answerRequired(id)
            try #require(try profile.jqc(["complete", id]).status == 0)
            ids.append(id)
        }

        // Signing in: the server's error text, then a display name.
        let refusing = try CannedHTTPServer([
            CannedHTTPServer.response(
                status: 401, contentType: "application/json",
                JSONValue.object([
                    "ok": false, "code": "AUTH_INVALID", "error": .string(Self.hostile("Wrong", "Password")),
                ]).canonicalString())
        ])
        defer { refusing.stop() }
        let refused = try profile.jqc(
            ["login", "--server", refusing.baseURL, "--username", "eve", "--password-stdin"], stdin: "pw\n")
        #expect(refused.status != 0)
        expectShown(refused, "login (refused)", ["Wrong", "Password"])

        let serverID = Self.hostile("R-Evil", "Rogue")
        let notFound = CannedHTTPServer.response(
            status: 404, contentType: "application/json",
            "{\"ok\": false, \"error\": \"Not found.\", \"code\": \"NOT_FOUND\"}")
        let server = try CannedHTTPServer([
            ok([
                "access_token": "t1", "refresh_token": "r1", "expires_in": 3600,
                "user": [
                    "id": "U-1", "username": "eve", "role": "inspector", "display_name": .string(Self.displayName),
                ],
            ]),
            ok(["facilities": []]),
            ok(["templates": [["id": .string(Self.hostile("T-Bad", "Ident")), "name": "no schema", "version": 1]]]),
            ok(["assignments": [], "cursor": "A1"]),
            ok([
                "results": [
                    ["local_id": .string(ids[0]), "status": "ACCEPTED", "server_id": .string(serverID), "revision": 1],
                    [
                        "local_id": .string(ids[1]), "status": "REJECTED", "error_code": "REPORT_INVALID",
                        "error": .string(Self.hostile("Blurry", "Photo")),
                    ],
                ], "min_supported_app_version": "0.0.1", "server_schema_version": 1,
            ]),
            notFound,
        ])
        defer { server.stop() }
        let login = try profile.jqc(
            ["login", "--server", server.baseURL, "--username", "eve", "--password-stdin"], stdin: "pw\n")
        #expect(login.status == 0, "\(login.stderr)")
        expectShown(login, "login", ["Eve", "Mallory"])
        let sync = try profile.jqc(["sync"])
        expectShown(sync, "sync", ["Skipped template", "T-Bad", "Ident", "REPORT_REJECTED", "Blurry", "Photo"])

        expectShown(try profile.jqc(["show", ids[0]]), "show", ["Server id: R-Evil", "Rogue"])
        expectShown(try profile.jqc(["show", ids[1]]), "show", ["Last error: Blurry", "Photo"])
        // `list --json` writes its own JSON: the server id is there exactly.
        let listed = try #require(try profile.document(["list"]).value["reports"]?.arrayValue)
        #expect(listed.first { $0["local_id"]?.stringValue == ids[0] }?["server_id"]?.stringValue == serverID)
    }

    @Test(
        "a menu line cut to the screen's width never cuts one of its own colour codes in half, and resets the colour after the cut"
    )
    func menuCutKeepsColours() {
        let line = "* [2] " + String(repeating: "x", count: 70) + ": \u{1B}[33m★★★★☆\u{1B}[0m 4/5 and more words"
        let cut = MenuScreen.fit(line, width: 80, style: .rich)
        #expect(cut.hasSuffix("…\u{1B}[0m"), "\(cut.debugDescription)")
        #expect(
            cut.replacingOccurrences(of: "\u{1B}[33m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "").count
                == 80)
        #expect(
            !cut.replacingOccurrences(of: "\u{1B}[33m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
                .contains("\u{1B}"),
            "only whole colour codes: \(cut.debugDescription)")
        #expect(
            MenuScreen.fit("short \u{1B}[32mpass\u{1B}[0m", width: 12, style: .rich) == "short \u{1B}[32mpass\u{1B}[0m",
            "a line as wide as the screen but for its colour codes is not cut")
    }
}
