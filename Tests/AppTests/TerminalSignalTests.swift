import Foundation
import Testing
import TestSupport

/// Signals that reach `jqc run` at a prompt in a real terminal: the terminal
/// closed, the program terminated, Ctrl-Z and `fg`. The program ends or stops
/// as the signal says, leaves the terminal as it found it, and keeps every
/// answer given.
@Suite("jqc run at a prompt meets hangup, terminate and Ctrl-Z", .serialized)
struct TerminalSignalTests {
    static let environment = ["LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "xterm"]

    @Test("the terminal closed at a prompt ends jqc by the hangup, never a crash, with the answers given saved")
    func hangup() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let folder = TemporaryDirectory()
        // The parent passes the hangup on to jqc, as a shell passes it on to its jobs, and
        // outlives it to write how jqc ended.
        let parent =
            "import signal, subprocess, sys; "
            + "child = subprocess.Popen(sys.argv[2:]); "
            + "signal.signal(signal.SIGHUP, lambda *_: child.send_signal(signal.SIGHUP)); "
            + "open(sys.argv[1], 'w').write(str(child.wait()))"
        for trial in 0..<20 {
            let ended = folder.path("ended-\(trial)")
            do {
                let terminal = try Terminal(
                    "python3 -c \\\"\(parent)\\\" \(ended) \(Programs.path("jqc")) --home \(profile.home) run \(id)",
                    environment: Self.environment)
                if trial == 0 { try terminal.answerFields(["4"], of: 15) }
                _ = try terminal.waitFor("Field 2 of 15")
                try terminal.keys("3")
            }
            // The terminal is gone: jqc's read fails as the hangup arrives. It ends by the hangup,
            // or by the failed read when that comes first (1: its screen is gone), never by a crash.
            let code = try Self.contents(of: ended)
            #expect(["-\(SIGHUP)", "1"].contains(code), "trial \(trial): jqc ended with \(code)")
        }
        #expect(try profile.show(id)["answers"]?["2"] == 4)
    }

    @Test("terminated at a prompt mid-line, jqc gives the terminal back in the modes it found it in")
    func terminated() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let folder = TemporaryDirectory()
        let modes = folder.path("modes")
        let terminal = try Terminal(
            "sh -c '\(Programs.path("jqc")) --home \(profile.home) run \(id); stty -a > \(modes); sleep 60'",
            environment: Self.environment)
        try terminal.answerFields(["4"], of: 15)
        _ = try terminal.waitFor("Field 2 of 15")
        try terminal.keys("3")
        #expect(kill(try Self.jqc(in: terminal), SIGTERM) == 0)
        let words = try Self.modeWords(in: modes)
        #expect(words.contains("icanon") && words.contains("echo"), "the terminal is left in raw mode: \(words)")
        #expect(try profile.show(id)["answers"]?["2"] == 4)
    }

    @Test("Ctrl-Z at a prompt gives the shell its terminal back; after fg the line is edited on, and the answer saved")
    func stopAndContinue() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let folder = TemporaryDirectory()
        let modes = folder.path("modes")
        let terminal = try Terminal("bash --norc --noprofile -i", environment: Self.environment)
        try terminal.type("\(Programs.path("jqc")) --home \(profile.home) run \(id)")
        try terminal.answerFields(["4"], of: 15)
        _ = try terminal.waitFor("Field 2 of 15")
        try terminal.press("C-z")
        _ = try terminal.waitFor("Stopped")
        try terminal.type("stty -a > \(modes)")
        let words = try Self.modeWords(in: modes)
        #expect(words.contains("icanon") && words.contains("echo"), "stopped, jqc left the terminal raw: \(words)")
        try terminal.type("fg")
        _ = try terminal.waitFor("run \(id)\n")
        // Up recalls the line typed before at once, before Enter: the editor has the keys one by one again.
        try terminal.press("Up")
        let recalled = try terminal.waitFor("> 4")
        #expect(!recalled.contains("^[[A"), "the terminal echoed the key instead of the editor taking it")
        try terminal.press("Enter")
        _ = try terminal.waitFor("Field 3 of 15")
        #expect(try profile.show(id)["answers"]?["3"] == 4)
        try terminal.type("/q")
    }

    /// The text of a file a program writes when it ends, once it is there.
    static func contents(of path: String, seconds: Double = 20) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), !text.isEmpty { return text }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TerminalError(message: "\(path) was never written")
    }

    /// The words of `stty -a` written to `path`: `icanon` and `echo` in a terminal's usual modes.
    static func modeWords(in path: String) throws -> [Substring] {
        try contents(of: path).split(whereSeparator: \.isWhitespace)
    }

    /// The `jqc` started by the terminal's program.
    static func jqc(in terminal: Terminal) throws -> Int32 {
        let found = try Programs.runShell("pgrep -x jqc -P \(try terminal.programID())")
        guard let pid = Int32(found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TerminalError(message: "no jqc in the terminal: '\(found.stdout)'")
        }
        return pid
    }
}
