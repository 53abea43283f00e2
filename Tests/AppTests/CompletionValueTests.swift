import Foundation
import Testing
import TestSupport

/// What Tab offers, in each shell's own completion machinery: the values of
/// an option or argument that is one of a fixed set (from the command specs,
/// the same sets help lists), and command names matched as whole words.
@Suite("Completion offers values, in bash, zsh and fish")
struct CompletionValueTests {
    /// A typed line and the words Tab must offer for its last (possibly empty) word.
    struct Case: Sendable, CustomStringConvertible {
        var line: String
        var offered: Set<String>
        var absent: Set<String> = []
        var description: String { line }
    }

    static let cases: [Case] = [
        Case(
            line: "jqc list --state ", offered: ["DRAFT", "PENDING", "SYNCED", "CONFLICT", "REJECTED"],
            absent: ["--", "--state", "a.jpg"]),
        Case(line: "jqc list --state P", offered: ["PENDING"], absent: ["DRAFT"]),
        Case(line: "jqc export 3f2a --format ", offered: ["json", "csv", "html"], absent: ["--", "a.jpg"]),
        Case(
            line: "jqc issue add 3f2a --severity ", offered: ["low", "medium", "high", "critical"], absent: ["a.jpg"]),
        Case(line: "jqc completion ", offered: ["bash", "zsh", "fish"], absent: ["a.jpg"]),
        Case(line: "jqc issues ", offered: [], absent: ["add"]),
        Case(line: "jqc issue ", offered: ["add"]),
        Case(line: "jqc pho", offered: ["photo"]),
        Case(line: "jqc list --st", offered: ["--state"]),
    ]

    /// A folder holding one file, `a.jpg` (so offering files instead of values shows), and the three scripts.
    func folder() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory(prefix: "jqc-completion")
        #expect(FileManager.default.createFile(atPath: directory.path("a.jpg"), contents: Data()))
        for (shell, name) in [("bash", "jqc.bash"), ("zsh", "_jqc"), ("fish", "jqc.fish")] {
            let generated = try Programs.run("jqc", ["completion", shell])
            #expect(generated.status == 0, "\(generated.stderr)")
            try Data(generated.stdout.utf8).write(to: URL(fileURLWithPath: directory.path(name)))
        }
        return directory
    }

    func check(_ offered: Set<String>, _ test: Case, shell: String) {
        #expect(offered.isSuperset(of: test.offered), "\(shell) '\(test.line)' offered \(offered.sorted())")
        #expect(offered.isDisjoint(with: test.absent), "\(shell) '\(test.line)' offered \(offered.sorted())")
    }

    @Test("bash: Tab after an option offers its values, and a command is matched as a whole word", arguments: cases)
    func bash(_ test: Case) throws {
        let directory = try folder()
        let words = test.line.split(separator: " ", omittingEmptySubsequences: false).map { "'\($0)'" }.joined(
            separator: " ")
        let outcome = try Programs.runShell(
            """
            cd \(directory.url.path) && bash -c 'source jqc.bash
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _jqc_complete; printf "%s\\n" "${COMPREPLY[@]}"' bash \(words)
            """)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        check(Set(outcome.stdout.split(separator: "\n").map(String.init)), test, shell: "bash")
    }

    @Test("zsh: Tab in a real zsh line editor (zpty) offers the values, not files", arguments: cases)
    func zsh(_ test: Case) throws {
        let directory = try folder()
        let matches = directory.path("matches")
        // An interactive zsh on a pseudo-terminal with the script on its fpath; every
        // compadd is recorded (after matching the word typed), then Tab is pressed and
        // the driver waits for the completion to finish (comppostfuncs).
        let driver = directory.path("drive.zsh")
        try Data(
            #"""
            zmodload zsh/zpty
            zpty z zsh -f -i
            zpty -w z "PROMPT=''; fpath=($2 \$fpath); autoload -Uz compinit; compinit -u -D"
            zpty -w z "zstyle ':completion:*' insert-tab false; jqc() { : }"
            zpty -w z 'compadd() { local -a m; builtin compadd -O m "$@"; (( ${#m} )) && print -rl -- ${m} >> '"$3"'; builtin compadd "$@" }'
            zpty -w z 'finished() { print -r -- "(finished)" >> '"$3"' }; comppostfuncs=(finished)'
            zpty -w z 'print READY'
            zpty -r z line '*READY*'
            zpty -w -n z "$1"$'\t'
            for i in {1..100}; do grep -qF '(finished)' "$3" 2>/dev/null && break; sleep 0.1; done
            zpty -w z $'\C-c'
            zpty -w z 'print DONE'
            zpty -r z line '*DONE*'
            zpty -d z
            """#.utf8
        ).write(to: URL(fileURLWithPath: driver))
        let outcome = try Programs.runShell(
            "cd \(directory.url.path) && timeout 20 zsh -f \(driver) '\(test.line)' \(directory.url.path) \(matches)")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let recorded = (try? String(contentsOfFile: matches, encoding: .utf8)) ?? ""
        #expect(recorded.contains("(finished)"), "zsh '\(test.line)': the completion did not finish")
        check(Set(recorded.split(separator: "\n").map(String.init)).subtracting(["(finished)"]), test, shell: "zsh")
    }

    @Test("fish: complete -C offers the values", arguments: cases)
    func fish(_ test: Case) throws {
        let directory = try folder()
        let outcome = try Programs.runShell(
            "cd \(directory.url.path) && fish -N -c 'source jqc.fish; complete -C \"\(test.line)\"'")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let offered = outcome.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        check(Set(offered), test, shell: "fish")
    }

    @Test("help lists an option's values from the same set completion offers")
    func helpListsValues() throws {
        let list = try Programs.run("jqc", ["list", "--help"])
        #expect(list.stdout.contains("DRAFT, PENDING, SYNCED, CONFLICT or REJECTED"), "\(list.stdout)")
        let export = try Programs.run("jqc", ["export", "--help"])
        #expect(export.stdout.contains("json, csv, html or pdf"), "\(export.stdout)")
        let completion = try Programs.run("jqc", ["completion", "--help"])
        #expect(completion.stdout.contains("bash, zsh or fish"), "\(completion.stdout)")
    }
}
