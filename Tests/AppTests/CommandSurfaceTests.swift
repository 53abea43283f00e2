import Foundation
import Models
import Testing
import TestSupport

/// How the three programs read a command line, as a user of gh or git
/// expects: groups show their commands, slips get a suggestion, unknown
/// options are usage errors wherever they stand, and help, completion and
/// man pages come from the same command specs as the parser.
@Suite("The command surface: groups, suggestions, help, completion, man pages")
struct CommandSurfaceTests {
    private func jqc(_ arguments: [String]) throws -> ProcessOutcome {
        let home = TemporaryDirectory(prefix: "jqc-surface")
        return try Programs.run("jqc", ["--home", home.path("profile")] + arguments)
    }

    @Test(
        "a group typed alone, or with --help, lists its commands and exits 0",
        arguments: [
            (["photo"], "photo add"), (["issue"], "issue add"), (["cache"], "cache clear"),
            (["photo", "--help"], "photo add"),
            (["issue", "--help"], "issue add"), (["cache", "--help"], "cache clear"), (["review"], "review approve"),
            (["review", "--help"], "review return"),
        ])
    func groups(_ arguments: [String], _ member: String) throws {
        let outcome = try jqc(arguments)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains(member))
        #expect(!outcome.stderr.contains("unknown command"))
    }

    @Test(
        "a mistyped command or subcommand is a usage error that names the nearest one",
        arguments: [
            (["statsu"], "Did you mean 'status'?"),
            (["templates", "improt", "x"], "Did you mean 'templates import'?"),
            (["photo", "ad", "x", "y.jpg"], "Did you mean 'photo add'?"),
            (["review", "aprove", "R-1"], "Did you mean 'review approve'?"),
        ])
    func suggestions(_ arguments: [String], _ hint: String) throws {
        let outcome = try jqc(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(hint), "\(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }

    @Test("templates with a wrong subcommand names the ones it has")
    func templatesSubcommands() throws {
        let outcome = try jqc(["templates", "improt", "x"])
        #expect(outcome.stderr.contains("import") && outcome.stderr.contains("lint"), "\(outcome.stderr)")
    }

    @Test(
        "an unknown option is a usage error wherever it stands, and a global option needs its value",
        arguments: [
            (["--bogus", "status"], "--bogus"), (["--bogus"], "--bogus"), (["status", "--bogus"], "--bogus"),
            (["--home"], "--home"),
        ])
    func unknownOptions(_ arguments: [String], _ named: String) throws {
        let outcome = try Programs.run("jqc", arguments)
        #expect(outcome.status == 2, "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stderr.contains(named) && !outcome.stderr.contains("unknown command"), "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }

    @Test("jqc --json with no command prints one JSON document listing every command")
    func jsonOverview() throws {
        let outcome = try jqc(["--json"])
        #expect(outcome.status == 0)
        let document = try JSONValue.parse(Data(outcome.stdout.utf8))
        let names = document["commands"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(
            names.contains("status") && names.contains("photo add") && names.contains("completion")
                && names.contains("migrate"))
    }

    @Test(
        "help COMMAND prints the same text as COMMAND --help",
        arguments: [["photo", "add"], ["status"], ["list"], ["review", "return"], ["migrate"]])
    func helpCommand(_ words: [String]) throws {
        let viaHelp = try jqc(["help"] + words)
        let viaFlag = try jqc(words + ["--help"])
        #expect(viaHelp.status == 0 && viaFlag.status == 0)
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(viaHelp.stdout.hasPrefix("Usage: jqc \(words.joined(separator: " "))"))
    }

    @Test("--version on every program, and listed in every program's help")
    func versions() throws {
        for program in ["jqc", "jqc-agent", "jqc-server"] {
            let version = try Programs.run(program, ["--version"])
            #expect(version.status == 0, "\(program): \(version.stderr)")
            #expect(version.stdout.hasPrefix("\(program) \(ProductVersion.current) ("), "\(version.stdout)")
            let help = try Programs.run(program, ["--help"])
            #expect(help.stdout.contains("--version"), "\(program) --help does not list --version")
        }
    }

    @Test("the bash completion script completes commands, subcommands and options")
    func bashCompletion() throws {
        let directory = TemporaryDirectory(prefix: "jqc-completion")
        let script = directory.path("jqc.bash")
        let generated = try jqc(["completion", "bash"])
        #expect(generated.status == 0)
        try Data(generated.stdout.utf8).write(to: URL(fileURLWithPath: script))
        let outcome = try Programs.runShell(
            """
            bash -c 'source \(script)
            complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _jqc_complete; echo "${COMPREPLY[*]}"; }
            complete_words jqc pho
            complete_words jqc photo ""
            complete_words jqc list --st
            complete_words jqc --home /tmp sta
            complete_words jqc review ""
            complete_words jqc review return --fi'
            """)
        let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count >= 6, "\(outcome.stdout) \(outcome.stderr)")
        guard lines.count >= 6 else { return }
        #expect(lines[0] == "photo")
        #expect(lines[1].split(separator: " ").contains("add"))
        #expect(lines[2] == "--state")
        #expect(lines[3].split(separator: " ").contains("status") && lines[3].split(separator: " ").contains("start"))
        #expect(
            Set(lines[4].split(separator: " ")).isSuperset(of: ["list", "show", "approve", "return", "reject"]),
            "\(lines[4])")
        #expect(lines[5] == "--field", "\(lines[5])")
    }

    @Test("the fish completion script completes commands and options in fish itself; the zsh script is valid zsh")
    func fishAndZshCompletion() throws {
        let directory = TemporaryDirectory(prefix: "jqc-completion")
        let fish = directory.path("jqc.fish"), zsh = directory.path("_jqc")
        try Data(try jqc(["completion", "fish"]).stdout.utf8).write(to: URL(fileURLWithPath: fish))
        try Data(try jqc(["completion", "zsh"]).stdout.utf8).write(to: URL(fileURLWithPath: zsh))
        let completed = try Programs.runShell(
            "fish -c 'source \(fish); complete -C \"jqc pho\"; complete -C \"jqc list --st\"'")
        #expect(completed.status == 0, "\(completed.stderr)")
        #expect(completed.stdout.contains("photo"), "\(completed.stdout)")
        #expect(completed.stdout.contains("--state"), "\(completed.stdout)")
        let checked = try Programs.runShell("zsh -n \(zsh)")
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(try jqc(["completion", "tcsh"]).status == 2)
    }

    @Test("every command and option of the parser is in the man page, which renders without a warning")
    func manPages() throws {
        let directory = TemporaryDirectory(prefix: "jqc-man")
        for program in ["jqc", "jqc-agent", "jqc-server"] {
            let page = try Programs.run(program, ["help", "--man"])
            #expect(page.status == 0, "\(program): \(page.stderr)")
            #expect(page.stdout.hasPrefix(".TH \(program.uppercased()) 1"))
            let path = directory.path("\(program).1")
            try Data(page.stdout.utf8).write(to: URL(fileURLWithPath: path))
            let rendered = try Programs.runShell(
                "groff -man -Tutf8 -ww -z \(path) 2>&1; groff -man -Tascii -P-cbou \(path) 2>&1")
            #expect(!rendered.stdout.contains("warning"), "\(program): \(rendered.stdout.prefix(400))")
            #expect(rendered.stdout.contains("SYNOPSIS"))
        }
        let overview = try jqc(["--json"])
        let names =
            try JSONValue.parse(Data(overview.stdout.utf8))["commands"]?.arrayValue?.compactMap {
                $0["name"]?.stringValue
            } ?? []
        let page = try jqc(["help", "--man"]).stdout
        for name in names {
            #expect(page.contains(name.replacingOccurrences(of: "-", with: "\\-")), "\(name) is not in the man page")
        }
        #expect(page.contains("\\-\\-state") && page.contains("\\-\\-keep\\-mine"))
        #expect(
            page.contains("review return") && page.contains("FIELD_ID=TEXT") && page.contains("\\-\\-revision"),
            "the review group's options")
    }
}

/// What a script reading jqc's output gets, and what a person at a terminal sees.
@Suite("Scripting: output for pipes, the status line for terminals")
struct ScriptingOutputTests {
    @Test("the status line follows human output on a terminal and never in a pipe")
    func statusLineOnlyOnTerminals() throws {
        let profile = try DemoProfile()
        _ = try profile.startDraft()
        let piped = try profile.jqc(["list"])
        #expect(piped.status == 0)
        #expect(!piped.stdout.contains(" pending · "), "\(piped.stdout)")
        #expect(
            piped.stdout.split(separator: "\n").last?.contains("DRAFT") == true,
            "the last line is the report: \(piped.stdout)")
        let command = "sh -c '\(Programs.path("jqc")) --home \(profile.home) list; echo listed; exec sleep 60'"
        let terminal = try Terminal(command, environment: ["LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "xterm"])
        let screen = try terminal.waitFor("listed")
        #expect(screen.contains("not signed in · 0 pending · 0 conflicts · 0 failed"), "\(screen)")
    }

    @Test("delete asks on a terminal; without one it refuses unless --yes, and deletes nothing")
    func deleteAsks() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let refused = try profile.jqc(["delete", id])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--yes"), "\(refused.stderr)")
        #expect(try profile.show(id)["state"] == "DRAFT", "a refused delete deleted")

        let command =
            "sh -c '\(Programs.path("jqc")) --home \(profile.home) delete \(id); echo exited with $?; exec sleep 60'"
        let terminal = try Terminal(command, environment: ["LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "xterm"])
        _ = try terminal.waitFor("[y/N]")
        try terminal.type("n")
        #expect(try terminal.waitFor("exited with").contains("nothing was deleted"))
        #expect(try profile.show(id)["state"] == "DRAFT")

        let confirmed = try Terminal(command, environment: ["LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "xterm"])
        _ = try confirmed.waitFor("[y/N]")
        try confirmed.type("y")
        #expect(try confirmed.waitFor("exited with").contains("exited with 0"))
        #expect(try profile.jqc(["show", id]).status == 3, "the draft is gone")

        let other = try profile.startDraft()
        #expect(try profile.jqc(["delete", other, "--yes"]).status == 0)
        #expect(try profile.jqc(["show", other]).status == 3)
    }
}

/// `jqc list` on many reports, and the agent as cron and systemd run it.
@Suite("Scripting: bounded listings and an agent fit for cron")
struct ScriptingListAndAgentTests {
    @Test("list shows the newest 30 and says how many there are; --limit N, --all and --json tell the same story")
    func listBounded() throws {
        let profile = try DemoProfile()
        var ids: [String] = []
        for _ in 0..<33 { ids.append(try profile.startDraft()) }
        let listed = try profile.jqc(["list"])
        let lines = listed.stdout.split(separator: "\n")
        #expect(lines.count == 32, "a header, 30 reports and the note: \(lines.count)")
        #expect(lines.last?.contains("newest 30 of 33") == true, "\(lines.last ?? "")")
        #expect(lines[1].hasPrefix(String(ids[32].prefix(8))), "newest first")
        #expect(try profile.jqc(["list", "--limit", "2"]).stdout.split(separator: "\n").count == 4)
        #expect(
            try profile.jqc(["list", "--all"]).stdout.split(separator: "\n").count == 34, "a header and 33 reports")
        let document = try profile.document(["list", "--all"]).value
        #expect(document["reports"]?.arrayValue?.count == 33)
        #expect(document["total"] == 33)
        #expect(document["reports"]?.arrayValue?.first?["local_id"]?.stringValue == ids[32])
        #expect(try profile.jqc(["list", "--all", "--limit", "3"]).status == 2)
        #expect(try profile.jqc(["list", "--limit", "0"]).status == 2)
    }

    @Test(
        "the agent creates the folder of its --log-file, refuses a --metrics-file it cannot write, and counts cycles over runs"
    )
    func agentForCron() throws {
        let gone = try ServerProcess(["--demo"])
        let profile = try DemoProfile.signedIn(to: gone.baseURL)
        _ = gone.stop()
        let log = profile.path("state/nested/jqc-agent.log")
        let metrics = profile.path("jqc.prom")
        for _ in 0..<2 {
            let outcome = try profile.agent(["run", "--once", "--log-file", log, "--metrics-file", metrics])
            #expect(outcome.status == 75, "offline: \(outcome.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: log), "the log's folder was not created")
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(text.contains("jqc_sync_cycles_total 2\n"), "the counter restarted with the run: \(text)")

        let unwritable = try profile.agent(["run", "--once", "--metrics-file", "/proc/jqc-agent.prom"])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr.contains("metrics file"), "\(unwritable.stderr)")
    }
}

/// `cache clear` forgets reference data, never what open work depends on.
@Suite("cache clear keeps what drafts need")
struct CacheClearTests {
    @Test("cache clear keeps the template of a draft, so the draft can still be answered and completed")
    func keepsTemplatesOfOpenWork() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let template = try #require(try profile.show(id)["template_id"]?.stringValue)
        let cleared = try profile.document(["cache", "clear"]).value
        #expect(cleared["templates_kept"] == 1)
        let templates = try profile.document(["templates"]).value["templates"]?.arrayValue?.compactMap {
            $0["id"]?.stringValue
        }
        #expect(templates == [template])
        try profile.answerRequired(id)
        let completed = try profile.jqc(["complete", id])
        #expect(completed.status == 0, "\(completed.stderr)")
    }
}
