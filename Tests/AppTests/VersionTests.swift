import Testing
import TestSupport

@Suite("jqc and jqc-agent as programs")
struct VersionTests {
    @Test("--version names the app and the libraries it runs with")
    func version() throws {
        for program in ["jqc", "jqc-agent"] {
            let outcome = try Programs.run(program, ["--version"])
            #expect(outcome.status == 0)
            #expect(outcome.stdout.hasPrefix("\(program) "))
            #expect(outcome.stdout.contains("SQLite 3."))
            #expect(outcome.stdout.contains("libcurl "))
        }
    }

    @Test("an unknown command is a usage error: one line on stderr, exit 2")
    func unknownCommand() throws {
        let outcome = try Programs.run("jqc", ["frobnicate"])
        #expect(outcome.status == 2)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("unknown command 'frobnicate'"))
        #expect(outcome.stderr.split(separator: "\n").count == 1)
    }
}
