import FieldTypes
import Models
import Testing

private let ascii = TerminalStyle.plain
private let unicode = TerminalStyle(color: false, unicode: true)

@Suite("Display")
struct DisplayTests {
    @Test("answers show on one line, in Unicode and in ASCII", arguments: Cases.displayCases)
    func display(_ definition: FieldDefinition, _ answer: JSONValue?, _ inUnicode: String, _ inASCII: String) {
        #expect(registry.display(definition, answer, style: unicode) == inUnicode)
        #expect(registry.display(definition, answer, style: ascii) == inASCII)
    }

    @Test("colour wraps the stars and the verdicts, and only when allowed")
    func colour() {
        #expect(
            registry.display(stars, 3, style: .rich)
                == "\u{1B}[33m\u{2605}\u{2605}\u{2605}\u{2606}\u{2606}\u{1B}[0m 3/5")
        #expect(registry.display(field("pass_fail"), "fail", style: .rich) == "\u{1B}[31m\u{2717} fail\u{1B}[0m")
        #expect(
            registry.display(field("pass_fail"), "fail", style: TerminalStyle(color: true, unicode: false))
                == "\u{1B}[31mfail\u{1B}[0m")
    }

    @Test("long text is cut to one screen-friendly line")
    func longText() {
        let line = registry.display(field("textarea"), .string(String(repeating: "a", count: 500)), style: ascii)
        #expect(line == String(repeating: "a", count: 197) + "...")
    }

    @Test("prompts number the choices and give the scale")
    func prompts() {
        #expect(
            registry.resolve(floor).prompt(for: floor, style: ascii)
                == [
                    "Choose one: type its number or its text.", "  1) Good", "  2) Fair", "  3) Poor",
                    "  (n/a if it does not apply)",
                ])
        #expect(
            registry.resolve(stars).prompt(for: stars, style: ascii)
                == [
                    "Rate from 1 to 5 stars: type a number (or ****); 0 clears; n/a if it does not apply."
                ])
        #expect(
            registry.resolve(threeStep).prompt(for: threeStep, style: ascii)
                == [
                    "Type a step's number or its name; 0 clears; n/a if it does not apply.",
                    "  1) Meets 100%", "  2) Needs attention 75% deficient", "  3) Fails 0% deficient",
                ])
        #expect(
            registry.resolve(repairs).prompt(for: repairs, style: ascii)
                == [
                    "Columns: Fixture, Problem, Urgency",
                    "Type one row as Fixture=...;Problem=...;Urgency=... (\\; for a semicolon in a value).",
                ])
    }

    @Test("the terminal style follows NO_COLOR, TERM=dumb and the locale", arguments: Cases.detectCases)
    func detect(_ environment: [String: String], _ isTerminal: Bool, _ expected: TerminalStyle) {
        #expect(TerminalStyle.detect(environment: environment, isTerminal: isTerminal) == expected)
    }
}

private enum Cases {
    static let displayCases: [(FieldDefinition, JSONValue?, String, String)] = [
        (stars, 4, "\u{2605}\u{2605}\u{2605}\u{2605}\u{2606} 4/5", "[****-] 4/5"),
        (stars, 0, "(no answer)", "(no answer)"),
        (stars, nil, "(no answer)", "(no answer)"),
        (stars, "N/A", "N/A", "N/A"),
        (stars, "4", "(unreadable answer: \"4\")", "(unreadable answer: \"4\")"),
        (FieldDefinition(id: "r", type: "rating", max: 20), 7, "7/20", "7/20"),
        (field("pass_fail"), "pass", "\u{2713} pass", "pass"),
        (field("pass_fail"), "fail", "\u{2717} fail", "fail"),
        (field("pass_fail"), "Compliant", "\u{2713} pass (Compliant)", "pass (Compliant)"),
        (field("checkbox"), true, "\u{2611} yes", "[x] yes"),
        (field("checkbox"), "false", "\u{2610} no", "[ ] no"),
        (field("checkbox"), "maybe", "\u{2610} no (maybe)", "[ ] no (maybe)"),
        (field("text"), "two\nlines", "two \u{23CE} lines", "two / lines"),
        (field("text"), "\u{1B}[2Jwiped", "[2Jwiped", "[2Jwiped"),
        (field("number"), 12, "12", "12"),
        (field("number"), 2.0, "2", "2"),
        (field("number"), -3.5, "-3.5", "-3.5"),
        (field("date"), "2026-03-01", "2026-03-01", "2026-03-01"),
        (supplies, ["Soap", "Toilet paper"], "Soap, Toilet paper", "Soap, Toilet paper"),
        (supplies, [""], #"(unreadable answer: [""])"#, #"(unreadable answer: [""])"#),
        (supplies, [" \u{7}"], #"(unreadable answer: [" \u0007"])"#, #"(unreadable answer: [" \u0007"])"#),
        (floor, "Good", "Good", "Good"),
        (
            field("signature"), signature("Dana Reyes"), "signed by Dana Reyes at 2026-03-01T14:02:00Z",
            "signed by Dana Reyes at 2026-03-01T14:02:00Z"
        ),
        (field("signature"), .string(photoA.uppercased()), "signature image \(photoA)", "signature image \(photoA)"),
        (field("image"), [.string(photoA), .string(photoB)], "2 photos", "2 photos"),
        (field("image"), [.string(photoA)], "1 photo", "1 photo"),
        (
            repairs, [["Fixture": "Sink", "Problem": "Leak"], ["Urgency": "high", "Fixture": "Tap"]],
            "2 rows: Fixture=Sink, Problem=Leak | Fixture=Tap, Urgency=high",
            "2 rows: Fixture=Sink, Problem=Leak | Fixture=Tap, Urgency=high"
        ),
        (field("section", label: "Restroom"), nil, "\u{2501}\u{2501} Restroom \u{2501}\u{2501}", "== Restroom =="),
        (field("label", label: "Check every stall."), nil, "Check every stall.", "Check every stall."),
        (
            field("geopoint"), ["lat": 51.5], "unsupported field type 'geopoint': {\"lat\":51.5}",
            "unsupported field type 'geopoint': {\"lat\":51.5}"
        ),
        (
            field("geopoint"), nil, "unsupported field type 'geopoint' (no answer)",
            "unsupported field type 'geopoint' (no answer)"
        ),
    ]

    static let detectCases: [([String: String], Bool, TerminalStyle)] = [
        (["LANG": "en_US.UTF-8", "TERM": "xterm-256color"], true, TerminalStyle.rich),
        (["LANG": "en_US.UTF-8", "NO_COLOR": ""], true, TerminalStyle(color: false, unicode: true)),
        (["LANG": "en_US.UTF-8"], false, TerminalStyle(color: false, unicode: true)),
        (["LC_ALL": "C", "LANG": "en_US.UTF-8"], true, TerminalStyle(color: true, unicode: false)),
        (["LANG": "en_US.utf8", "TERM": "dumb"], true, TerminalStyle.plain),
        ([:], true, TerminalStyle(color: true, unicode: false)),
    ]
}
