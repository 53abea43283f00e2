import Foundation
import Testing
import TestSupport

/// The man pages as `man -l` shows them to a person: each example on a line
/// of its own, a date at the foot of the page, and every exit status the
/// program can end with, 141 for a closed pipe included.
@Suite("Man pages, rendered")
struct ManPageRenderingTests {
    /// `PROGRAM help --man` rendered by man(1) at a fixed width, with its warnings.
    func rendered(_ program: String) throws -> (text: String, warnings: String) {
        let directory = TemporaryDirectory(prefix: "jqc-man")
        let page = try Programs.run(program, ["help", "--man"])
        #expect(page.status == 0, "\(program): \(page.stderr)")
        let path = directory.path("\(program).1")
        try Data(page.stdout.utf8).write(to: URL(fileURLWithPath: path))
        let man = try Programs.runShell("MANWIDTH=200 man -l \(path) 2>/dev/null")
        #expect(man.status == 0, "\(man.stderr)")
        let warnings = try Programs.runShell("groff -man -Tutf8 -ww -z \(path) 2>&1")
        return (man.stdout, warnings.stdout)
    }

    /// The rendered lines, without their indentation.
    func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test(
        "each example of jqc's man page is a line of its own, as in --help",
        arguments: [
            ["login"], ["export"], ["issue", "add"], ["explain"],
        ])
    func examplesOnTheirOwnLines(_ command: [String]) throws {
        let help = try Programs.run("jqc", command + ["--help"]).stdout
        let examples = help.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  jqc ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(!examples.isEmpty, "\(command) --help shows no example")
        let page = lines(try rendered("jqc").text)
        for example in examples {
            #expect(page.contains(example), "'\(example)' is not a line of its own in the man page")
        }
    }

    @Test(
        "the page has a date, lists exit 141, and renders without a warning",
        arguments: ["jqc", "jqc-agent", "jqc-server"])
    func dateAndExitStatus(_ program: String) throws {
        let (text, warnings) = try rendered(program)
        #expect(warnings.isEmpty, "\(program): \(warnings)")
        let page = lines(text)
        let foot = try #require(page.last)
        #expect(
            foot.range(of: #"\d{4}-\d{2}-\d{2}"#, options: .regularExpression) != nil,
            "\(program): no date in '\(foot)'")
        let status = try #require(page.firstIndex(of: "EXIT STATUS"), "\(program): no EXIT STATUS")
        let section = page[(status + 1)...].prefix { $0 != $0.uppercased() || $0.isEmpty || $0.first?.isNumber == true }
        #expect(section.contains { $0.hasPrefix("0 ") }, "\(program): \(section)")
        #expect(section.contains { $0.hasPrefix("2 usage error") }, "\(program): \(section)")
        #expect(section.contains { $0.hasPrefix("141 ") && $0.contains("closed pipe") }, "\(program): \(section)")
    }
}
