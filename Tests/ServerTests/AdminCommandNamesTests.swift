import Foundation
import Models
import Testing
import TestSupport

/// `jqc-server admin`'s commands as docs/commands.md lists them (noun, then
/// verb), each run as an operator runs it against a fresh SQLite database in
/// a temporary folder, checked by what the operator then sees: the exit
/// code, what it prints, and the change in `facility list`, `user list` and
/// the others.
@Suite("jqc-server admin: noun-first names, the older names, and the server's command line")
struct AdminCommandNamesTests {
    /// A fresh database and the files an operator imports.
    final class Operator {
        let folder = TemporaryDirectory(prefix: "admin-names")
        var database: String { folder.path("server.db") }

        /// `jqc-server admin --db DB words...`, with `stdin` typed in.
        func admin(_ words: [String], stdin: String? = nil) throws -> ProcessOutcome {
            try Programs.run("jqc-server", ["admin", "--db", database] + words, stdin: stdin)
        }

        /// Runs `words` and expects exit 0; returns what it printed.
        @discardableResult
        func done(_ words: [String], stdin: String? = nil) throws -> String {
            let outcome = try admin(words, stdin: stdin)
            #expect(outcome.status == 0, "admin \(words.joined(separator: " ")): \(outcome.stderr)")
            return outcome.stdout
        }

        /// The line of `listing` (a command's table) that begins with `id`.
        func row(_ id: String, in listing: [String]) throws -> String {
            let output = try done(listing)
            return output.split(separator: "\n").map(String.init).first { $0.hasPrefix(id + " ") } ?? ""
        }

        /// Writes `text` to a file in the folder; its path.
        func file(_ name: String, _ text: String) throws -> String {
            try Data(text.utf8).write(to: folder.url.appendingPathComponent(name))
            return folder.path(name)
        }
    }

    static let template = """
        {"id": "T1", "name": "Daily washroom check", "version": 1,
         "form_schema": {"fields": [{"id": 1, "type": "pass_fail", "label": "Soap filled", "required": true}]}}
        """

    @Test("facility and area commands: add, update, retire, list, import")
    func sites() throws {
        let op = Operator()
        #expect(
            try op.done(["facility", "add", "F-100", "--name", "Harbour", "--address", "12 Quay", "--project", "Down"])
                .contains("added facility F-100 (Harbour)"))
        #expect(try op.row("F-100", in: ["facility", "list"]).contains("Harbour"))
        try op.done(["facility", "update", "F-100", "--name", "Harbour Tower", "--project", "Downtown"])
        let updated = try op.row("F-100", in: ["facility", "list"])
        #expect(updated.contains("Harbour Tower") && updated.contains("Downtown") && updated.contains("active"))
        let sites = try op.file("sites.csv", "id,name,address,project_name\nF-200,Clinic,,\nF-300,Depot,,\n")
        #expect(try op.done(["facilities", "import", sites]).contains("2 added"))
        #expect(try op.done(["facility", "retire", "F-300"]).contains("facility F-300 is retired"))
        #expect(try op.row("F-300", in: ["facility", "list"]).hasSuffix("retired"))
        #expect(try op.row("F-200", in: ["facility", "list"]).hasSuffix("active"))

        #expect(
            try op.done(["area", "add", "F-100", "A-101", "--name", "Lobby", "--type", "lobby"])
                .contains("added area A-101 (Lobby) to facility F-100"))
        try op.done(["area", "update", "A-101", "--name", "Main lobby", "--type", "entrance"])
        let area = try op.row("A-101", in: ["area", "list", "--facility", "F-100"])
        #expect(area.contains("F-100") && area.contains("Main lobby") && area.contains("entrance"), "\(area)")
        let areas = try op.file("areas.csv", "id,facility_id,name,area_type\nA-201,F-200,Staff washroom,washroom\n")
        #expect(try op.done(["areas", "import", areas]).contains("1 added"))
        #expect(try op.row("A-201", in: ["area", "list"]).hasSuffix("active"))
        try op.done(["area", "retire", "A-201"])
        #expect(try op.row("A-201", in: ["area", "list"]).hasSuffix("retired"))
    }

    @Test("user commands: add (password on stdin), list, disable, enable, role, update, set-password")
    func people() throws {
        let op = Operator()
        let added = try op.done(
            ["user", "add", "ada", "--role", "admin", "--display-name", "Ada Ng"], stdin: "ada-password-1\n")
        #expect(added.hasPrefix("user ada (admin) has id U-"), "\(added)")
        try op.done(["user", "add", "ivy", "--role", "inspector"], stdin: "ivy-password-1\n")
        let ada = try op.done(["user", "list"]).split(separator: "\n").first { $0.contains(" ada ") } ?? ""
        #expect(ada.contains(" admin ") && ada.contains("Ada Ng") && ada.hasSuffix("active"), "\(ada)")
        // A taken name is refused: `user add` adds, it does not reset.
        let again = try op.admin(["user", "add", "ivy", "--role", "inspector"], stdin: "ivy-password-2\n")
        #expect(again.status == 7 && again.stderr.contains("exists already"), "\(again.stderr)")

        func ivy() throws -> String {
            try op.done(["user", "list"]).split(separator: "\n").map(String.init).first { $0.contains(" ivy ") } ?? ""
        }
        #expect(try ivy().hasSuffix("active"))
        #expect(try op.done(["user", "disable", "ivy"]).contains("disabled"))
        #expect(try ivy().hasSuffix("disabled"))
        #expect(try op.done(["user", "enable", "ivy"]).contains("user ivy is enabled"))
        #expect(try ivy().hasSuffix("active"))
        try op.done(["user", "role", "ivy", "supervisor"])
        #expect(try ivy().contains("supervisor"))
        try op.done(["user", "update", "ivy", "--display-name", "Ivy Field"])
        #expect(try ivy().contains("Ivy Field"))
        #expect(try op.done(["user", "set-password", "ivy"], stdin: "ivy-password-3\n").contains("signed out"))
        let events = try op.done(["events"])
        for kind in ["user.added", "user.disabled", "user.enabled", "user.changed", "user.password_set"] {
            #expect(events.contains(kind), "\(kind) is not in the log: \(events)")
        }
        #expect(try op.admin(["user", "role", "ivy", "boss"]).status == 4)
    }

    @Test("template and assignment commands: publish, list, add (prints the id), update, cancel, import, retire")
    func work() throws {
        let op = Operator()
        try op.done(["user", "add", "ivy", "--role", "inspector"], stdin: "ivy-password-1\n")
        try op.done(["user", "add", "ben", "--role", "inspector"], stdin: "ben-password-1\n")
        try op.done(["facility", "add", "F-100", "--name", "Harbour"])
        try op.done(["area", "add", "F-100", "A-101", "--name", "Lobby"])
        let template = try op.file("t1.json", Self.template)
        #expect(try op.done(["template", "publish", template]).contains("published template T1 version 1"))
        #expect(try op.row("T1", in: ["template", "list"]).hasSuffix("active"))

        let work = ["--template", "T1", "--facility", "F-100", "--area", "A-101", "--inspector", "ivy"]
        let made = try op.done(["assignment", "add"] + work + ["--due", "2030-01-01T12:00:00Z"])
        let first = made.trimmingCharacters(in: .newlines)
        #expect(!first.isEmpty && !first.contains(" ") && !first.contains("\n"), "prints only the id: \(made)")
        #expect(try op.row(first, in: ["assignment", "list"]).hasSuffix("open"))
        #expect(
            try op.done(["assignment", "add"] + work + ["--due", "2030-01-02T00:00:00Z", "--id", "W-2"]) == "W-2\n")
        try op.done(["assignment", "update", "W-2", "--due", "2030-02-01T00:00:00Z"])
        #expect(try op.row("W-2", in: ["assignment", "list"]).contains("2030-02-01"))

        let moved = try op.done(["assignment", "update", "W-2", "--inspector", "ben"])
        #expect(moved.contains("assignment W-2 is cancelled"), "\(moved)")
        let listing = try op.done(["assignment", "list", "--json"])
        let all = try JSONValue.parse(Data(listing.utf8))["assignments"]?.arrayValue ?? []
        let bens = all.filter { $0["id"] != "W-2" && $0["id"]?.stringValue != first }
        #expect(bens.count == 1 && moved.contains(bens.first?["id"]?.stringValue ?? "?"), "\(listing)")
        #expect(try op.row("W-2", in: ["assignment", "list"]).hasSuffix("cancelled"))

        try op.done(["assignment", "cancel", first])
        #expect(try op.row(first, in: ["assignment", "list"]).hasSuffix("cancelled"))
        let open = try op.done(["assignment", "list", "--open"])
        #expect(open.contains(" ben ") && !open.contains("W-2") && !open.contains(first), "\(open)")

        let sheet = try op.file(
            "work.csv", "id,template_id,facility_id,area_id,inspector,due_at\nW-3,T1,F-100,,ivy,2030-03-01\n")
        #expect(try op.done(["assignments", "import", sheet]).contains("1 added"))
        #expect(try op.row("W-3", in: ["assignment", "list", "--open"]).contains("ivy"))

        try op.done(["template", "retire", "T1"])
        #expect(try op.row("T1", in: ["template", "list"]).hasSuffix("retired"))
        let events = try op.done(["events"])
        #expect(events.contains("assignment.cancelled") && events.contains("assignment.created"))
    }

    @Test("the older names work and are hidden from help and the man page")
    func olderNames() throws {
        let op = Operator()
        #expect(try op.done(["add-user", "ada", "--role", "admin"], stdin: "ada-password-1\n").contains("user ada"))
        // add-user, like user add, refuses a user name that exists: the user is never reset.
        #expect(try op.admin(["add-user", "ada", "--role", "admin"], stdin: "ada-password-2\n").status == 7)
        try op.done(["add-user", "ivy"], stdin: "ivy-password-1\n")
        #expect(try op.done(["users"]).contains("ivy"))
        try op.done(["add-facility", "F-1", "--name", "One"])
        try op.done(["edit-facility", "F-1", "--name", "Uno"])
        #expect(try op.done(["facilities"]).contains("Uno"))
        try op.done(["import-facilities", try op.file("f.csv", "id,name,address,project_name\nF-2,Two,,\n")])
        try op.done(["retire-facility", "F-2"])
        try op.done(["retire-facility", "F-2", "--restore"])
        #expect(try op.row("F-2", in: ["facilities"]).hasSuffix("active"))
        try op.done(["add-area", "A-1", "--facility", "F-1", "--name", "Hall"])
        try op.done(["edit-area", "A-1", "--type", "lobby"])
        try op.done(["import-areas", try op.file("a.csv", "id,facility_id,name,area_type\nA-2,F-2,Yard,\n")])
        try op.done(["retire-area", "A-2"])
        // `areas` is also the group of `areas import` now: its option's value is not a command word.
        let areas = try op.done(["areas", "--facility", "F-1"])
        #expect(areas.contains("A-1") && areas.contains("lobby") && !areas.contains("A-2"), "\(areas)")
        try op.done(["publish-template", try op.file("t.json", Self.template)])
        #expect(try op.done(["templates"]).contains("T1"))
        let assigned = try op.done([
            "assign", "--inspector", "ivy", "--template", "T1", "--facility", "F-1", "--id", "W-1",
        ])
        #expect(assigned.hasPrefix("assignment W-1 for ivy: template T1 at F-1"), "\(assigned)")
        try op.done(["edit-assignment", "W-1", "--due", "2030-01-01"])
        #expect(try op.done(["assignments", "--inspector", "ivy"]).contains("W-1"))
        try op.done(["cancel-assignment", "W-1"])
        try op.done(
            ["import-assignments", try op.file("w.csv", "id,template_id,facility_id,inspector\nW-9,T1,F-1,ivy\n")])
        try op.done(["retire-template", "T1"])
        try op.done(["edit-user", "ivy", "--display-name", "Ivy"])
        #expect(try op.done(["disable-user", "ivy"]).contains("disabled"))
        #expect(try op.done(["disable-user", "ivy", "--enable"]).contains("enabled"))
        try op.done(["set-password", "ivy"], stdin: "ivy-password-2\n")

        let help = try Programs.run("jqc-server", ["admin", "--help"])
        #expect(help.status == 0)
        // Each command line of the overview: two spaces, the name padded to 20, its summary.
        let listed = help.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
            .map { $0.dropFirst(2).prefix(20).trimmingCharacters(in: .whitespaces) }
        for older in ["add-user", "users", "add-facility", "facilities", "assign", "publish-template", "disable-user"] {
            #expect(!listed.contains(older), "'\(older)' is listed in admin --help: \(listed)")
        }
        for name in ["facility add", "area update", "assignment list", "template publish", "user enable"] {
            #expect(listed.contains(name), "'\(name)' is not in admin --help: \(listed)")
        }
        let facility = try #require(listed.firstIndex(of: "facility add"))
        let user = try #require(listed.firstIndex(of: "user add"))
        #expect(facility < user && listed[facility + 1].hasPrefix("facility "), "noun first: \(listed)")
        let page = try Programs.run("jqc-server", ["help", "--man"]).stdout
        #expect(page.contains("admin user set\\-password") && page.contains("\\-\\-metrics\\-listen"))
        #expect(!page.contains("add\\-user") && !page.contains("retire\\-facility") && !page.contains("metrics\\-port"))
        let serveHelp = try Programs.run("jqc-server", ["--help"]).stdout
        #expect(serveHelp.contains("--metrics-listen HOST:PORT") && !serveHelp.contains("--metrics-port"))
    }

    @Test(
        "--metrics-listen HOST:PORT serves /metrics and prints its address after the listening line",
        arguments: [("127.0.0.1:0", "http://127.0.0.1:"), ("[::1]:0", "http://[::1]:")])
    func metricsListen(_ listen: String, _ prefix: String) throws {
        let server = try ObservedServer(["--metrics-listen", listen])
        #expect(server.banner.first?.hasPrefix("listening on http://") == true)
        let url = try #require(server.metricsURL, "no metrics line after the listening line: \(server.banner)")
        #expect(url.hasPrefix(prefix), "\(server.banner)")
        // curl, as an operator checks it (Foundation's client does not take an IPv6 literal in a URL).
        let answer = try Programs.runShell("curl -sSfg '\(url)'")
        #expect(answer.status == 0, "\(answer.stderr)")
        #expect(answer.stdout.contains("jqc_server_requests_total"), "\(answer.stdout.prefix(200))")
        #expect(server.stop() == 0)
    }

    @Test("--metrics-listen refuses what is not HOST:PORT, and the older pair beside it, as usage errors")
    func metricsListenUsage() throws {
        let folder = TemporaryDirectory(prefix: "metrics-usage")
        let db = folder.path("server.db")
        let bare = try Programs.run("jqc-server", ["--db", db, "--metrics-listen", "9100"])
        #expect(bare.status == 2 && bare.stderr.contains("is not HOST:PORT"), "\(bare.stderr)")
        let both = try Programs.run(
            "jqc-server", ["--db", db, "--metrics-listen", "127.0.0.1:0", "--metrics-port", "0"])
        #expect(both.status == 2 && both.stderr.contains("--metrics-listen"), "\(both.stderr)")
    }

    @Test("'admin' after the database is a usage error that shows the command line with 'admin' first")
    func misplacedAdmin() throws {
        let folder = TemporaryDirectory(prefix: "misplaced-admin")
        let db = folder.path("server.db")
        let outcome = try Programs.run("jqc-server", ["--db", db, "admin", "users"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr == "jqc-server: put 'admin' first: jqc-server admin --db \(db) users\n", "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: db), "the server must not have started on the database")
    }

    @Test("a noun typed alone names its commands")
    func nounAlone() throws {
        let folder = TemporaryDirectory(prefix: "noun-alone")
        let outcome = try Programs.run("jqc-server", ["admin", "--db", folder.path("server.db"), "user"])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr.contains(
                "'admin user' needs one of its commands: add, list, disable, enable, role, update, facilities, set-password."
            ),
            "\(outcome.stderr)")
    }
}
