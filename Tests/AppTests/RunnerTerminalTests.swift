import Foundation
import Testing
import TestSupport

@Suite("jqc run in a real terminal", .serialized)
struct RunnerTerminalTests {
    @Test("killed with SIGKILL mid-form, a rerun reopens at the field where it stopped with every answer intact")
    func killAndResume() throws {
        let profile = try DemoProfile()
        let id = try profile.start(["--assignment", "AS-1"])
        let command = "\(Programs.path("jqc")) --home \(profile.home) run \(id)"
        let environment = ["LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "xterm"]
        do {
            let terminal = try Terminal(command, environment: environment)
            try terminal.answerFields(["4", "3", "pass"], of: 15)
            let screen = try terminal.waitFor("Field 4 of 15")
            #expect(screen.contains("Bins emptied"))
            #expect(kill(try terminal.programID(), SIGKILL) == 0)
        }

        let shown = try profile.json(["show", id])
        let answers = shown["answers"] as? [String: Any] ?? [:]
        #expect(answers["2"] as? Int == 4)
        #expect(answers["3"] as? Int == 3)
        #expect(answers["4"] as? String == "pass")
        #expect(shown["state"] as? String == "DRAFT")

        let terminal = try Terminal(command, environment: environment)
        let reopened = try terminal.waitFor("Field 4 of 15")
        #expect(!reopened.contains("Field 1 of 15"), "the rerun must not start from the beginning")
        #expect(reopened.contains("3 answered"))
        try terminal.type("yes")
        try terminal.waitFor("Field 5 of 15")
        try terminal.type("/q")
        let after = try profile.json(["show", id])
        #expect((after["answers"] as? [String: Any])?["5"] as? Bool == true)
    }

    @Test(
        "at a photo field the hint names this report, and a typed path attaches the photo instead of being taken for a command"
    )
    func pathAtPhotoField() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let photo = try profile.writeJPEG("tap.jpg", seed: 4)
        let command = "\(Programs.path("jqc")) --home \(profile.home) run \(id)"
        let terminal = try Terminal(command, environment: ["LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "xterm"])
        _ = try terminal.waitFor("Field 1 of")
        try terminal.type("/j 14")
        let hint = try terminal.waitFor("Evidence photos")
        #expect(hint.contains("jqc photo add \(id.prefix(8)) --field 14"), "\(hint)")
        #expect(!hint.contains("LOCAL_ID"))
        try terminal.type(photo)
        let attached = try terminal.waitFor("attached 1 photo")
        #expect(!attached.contains("not a runner command"))
        try terminal.type("/q")
        let shown = try profile.show(id)
        #expect(shown["photos"]?.arrayValue?.count == 1)
        #expect(shown["photos"]?.arrayValue?.first?["field_id"] == "14")
    }

    @Test(
        "the line being typed is edited with the arrow keys, End and Up through earlier lines (libedit); a line ending in \\ goes on in notes"
    )
    func lineEditing() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let command = "\(Programs.path("jqc")) --home \(profile.home) run \(id)"
        let terminal = try Terminal(command, environment: ["LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "xterm"])
        _ = try terminal.waitFor("Field 1 of")
        try terminal.type("/j 15")
        _ = try terminal.waitFor("Attendant on duty")
        try terminal.keys("Sm")
        try terminal.press("Left")
        try terminal.keys("a")
        try terminal.press("End")
        try terminal.keys("uel")
        try terminal.press("Enter")
        _ = try terminal.waitFor("saved: Samuel")
        try terminal.type("/b")
        _ = try terminal.waitFor("now: Samuel")
        // Up recalls "/b", then "Samuel"; three backspaces make it "Sam".
        try terminal.press("Up")
        try terminal.press("Up")
        for _ in 0..<3 { try terminal.press("BSpace") }
        try terminal.press("Enter")
        _ = try terminal.waitFor("saved: Sam\n")
        try terminal.type("/j 17")
        _ = try terminal.waitFor("end a line with \\ to go on")
        try terminal.type("Mirror cracked\\")
        try terminal.type("Tap drips")
        _ = try terminal.waitFor("saved: Mirror cracked")
        try terminal.type("/q")
        let answers = try profile.show(id)["answers"]
        #expect(answers?["15"] == "Sam")
        #expect(answers?["17"] == "Mirror cracked\nTap drips")
    }

    @Test("Ctrl-C in the runner says the answers are saved and how to go on, exits 130, and the answers are there")
    func interrupted() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        // A parent that ignores Ctrl-C, so it lives to print jqc's exit status (a shell's trap would change $?).
        let parent =
            "import signal, subprocess, sys, time; signal.signal(signal.SIGINT, signal.SIG_IGN); "
            + "print('exited with', subprocess.call(sys.argv[1:]), flush=True); time.sleep(60)"
        let command = "python3 -c \\\"\(parent)\\\" \(Programs.path("jqc")) --home \(profile.home) run \(id)"
        let terminal = try Terminal(command, environment: ["LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "xterm"])
        try terminal.answerFields(["4"], of: 15)
        _ = try terminal.waitFor("Field 2 of 15")
        try terminal.press("C-c")
        let screen = try terminal.waitFor("exited with")
        #expect(screen.contains("every answer typed so far is saved"), "\(screen)")
        #expect(screen.contains("jqc run \(id.prefix(8))"))
        #expect(screen.contains("exited with 130"))
        #expect(try profile.show(id)["answers"]?["2"] == 4)
    }

    @Test("a failed critical field is reported the moment it is answered, not only at /done")
    func criticalFailureAtOnce() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        let terminal = try Terminal(
            "\(Programs.path("jqc")) --home \(profile.home) run \(id)",
            environment: ["LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "xterm"])
        try terminal.answerFields(["4", "4", "fail"], of: 15)
        let screen = try terminal.waitFor("Field 4 of 15")
        #expect(screen.contains("Soap dispensers filled is critical and this answer fails it"), "\(screen)")
        try terminal.type("/q")
    }

    @Test("colour on a colour terminal, none with NO_COLOR")
    func noColor() throws {
        let profile = try DemoProfile()
        let id = try profile.start(["--assignment", "AS-2"])
        let command = "\(Programs.path("jqc")) --home \(profile.home) run \(id)"
        let coloured = try Terminal(command, environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color"])
        try coloured.waitFor("Field 1 of 5")
        #expect(try coloured.screen(escapes: true).contains("\u{1B}["))
        let plain = try Terminal(command, environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color", "NO_COLOR": "1"])
        try plain.waitFor("Field 1 of 5")
        #expect(!(try plain.screen(escapes: true).contains("\u{1B}[")))
    }

    @Test("with answers piped in, the runner reads them line by line and completes")
    func piped() throws {
        let profile = try DemoProfile()
        let id = try profile.start(["--assignment", "AS-2"])
        let outcome = try profile.jqc(["run", id], stdin: "pass\n5\n2\nno\nAll good\n/done\n")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("Completed: score"))
        let shown = try profile.json(["show", id])
        #expect(shown["state"] as? String == "PENDING")
        let answers = shown["answers"] as? [String: Any] ?? [:]
        #expect(answers["entrance"] as? String == "pass")
        #expect(answers["glass"] as? Int == 5)
        #expect(answers["seating"] as? String == "Needs attention")
        #expect(answers["hazards"] as? Bool == false)
        #expect(answers["notes"] as? String == "All good")
    }

    @Test("a wrong answer is explained inline and the runner stays on the field; nothing saved is lost")
    func wrongAnswer() throws {
        let profile = try DemoProfile()
        let id = try profile.start(["--assignment", "AS-2"])
        let outcome = try profile.jqc(["run", id], stdin: "pass\n9\n/q\n")
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("! Field 'glass' (Glass and doors):"))
        let shown = try profile.json(["show", id])
        let answers = shown["answers"] as? [String: Any] ?? [:]
        #expect(answers["entrance"] as? String == "pass")
        #expect(answers["glass"] == nil)
    }
}
