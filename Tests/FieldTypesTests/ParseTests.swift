import FieldTypes
import Models
import Testing

@Suite("Typed input")
struct ParseTests {
    @Test("what a person types becomes the contract's encoding", arguments: Cases.readCases)
    func read(_ definition: FieldDefinition, _ input: String, _ expected: JSONValue) {
        #expect(typed(input, definition) == .success(expected))
    }

    @Test("an option named like a number is matched by its text before its position")
    func numericOptionText() {
        let floors = FieldDefinition(id: "fl", type: "radio", label: "Floor", options: ["3", "2", "1"])
        #expect(typed("1", floors) == .success("1"))
        let kit = FieldDefinition(id: "k", type: "checkbox_group", label: "Kit", options: ["Soap, liquid", "Mop"])
        #expect(typed("soap, liquid,mop", kit) == .success(["Soap, liquid", "Mop"]))
    }

    @Test(
        "an option number at the ends of the integers is refused, never a crash",
        arguments: ["-9223372036854775808", "9223372036854775807", "0", "-1"])
    func optionNumberAtTheEnds(_ number: String) {
        #expect(
            refusal(number, floor)
                == "'\(number)' is not one of the options; type an option's text or number (1 Good, 2 Fair, 3 Poor), or n/a"
        )
        #expect(refusal(number, shift) != nil)
        #expect(
            refusal("1,\(number)", supplies)
                == "'\(number)' is not one of the options; type options separated by commas, by text or number (1 Soap, 2 Paper towels, 3 Toilet paper)"
        )
    }

    @Test("unreadable input is refused with one line quoting it and saying what to type", arguments: Cases.refusedCases)
    func refused(_ definition: FieldDefinition, _ input: String, _ message: String) {
        #expect(refusal(input, definition) == message)
    }

    @Test("a signature records the signer, the device time in UTC and the caller's content digest")
    func signatureRecordsContext() throws {
        let late = InputContext(
            deviceTime: .init(timeIntervalSince1970: 1_772_409_599), contentDigest: String(repeating: "C", count: 64))
        let answer = try SignatureField().parse("Lee", for: field("signature"), context: late)
        #expect(answer == signature("Lee", at: "2026-03-01T23:59:59Z", sha256: String(repeating: "c", count: 64)))

        let unsaved = InputContext(deviceTime: context.deviceTime, contentDigest: "")
        #expect(throws: AnswerInputError.self) {
            try SignatureField().parse("Lee", for: field("signature"), context: unsaved)
        }
    }

    @Test("today is the device's UTC date, before and after 1970 and at midnight", arguments: Cases.todayCases)
    func today(_ seconds: Double, _ expected: String) throws {
        let answer = try DateField().parse(
            "today", for: field("date"),
            context: InputContext(deviceTime: .init(timeIntervalSince1970: seconds), contentDigest: digest))
        #expect(answer == .string(expected))
    }

    @Test("--add-row appends a typed row to the rows already there")
    func addRow() throws {
        let first = try registry.parse("Fixture=Sink", for: repairs, context: context)
        let second = try registry.parse("Fixture=Tap;Urgency=high", for: repairs, context: context)
        let both = try TableField.appendingRows(second, to: first)
        #expect(both == [["Fixture": "Sink"], ["Fixture": "Tap", "Urgency": "high"]])
        #expect(try TableField.appendingRows(first, to: nil) == first)
        #expect(registry.resolve(repairs).validate(both, for: repairs) == nil)
        #expect(throws: AnswerInputError.self) { try TableField.appendingRows(second, to: "Sink") }
    }
}

private enum Cases {
    static let readCases: [(FieldDefinition, String, JSONValue)] = [
        (field("text"), "  East wing ", "East wing" as JSONValue),
        (field("textarea"), "line one\nline two\n", "line one\nline two"),
        (field("email"), " dana@example.org", "dana@example.org"),
        (field("number"), "12", 12), (field("number"), "-3.5", -3.5), (field("number"), "1e3", 1000),
        (field("number"), "2.0", 2), (field("number"), "+7", 7), (field("number"), ".5", 0.5),
        (field("date"), "2024-02-29", "2024-02-29"), (field("date"), "Today", "2026-03-01"),
        (field("checkbox"), "yes", true), (field("checkbox"), "X", true), (field("checkbox"), "0", false),
        (field("checkbox"), "n", false), (field("checkbox"), "N/A", "N/A"),
        (supplies, "1,3", ["Soap", "Toilet paper"]), (supplies, "toilet paper, soap", ["Soap", "Toilet paper"]),
        (supplies, "2", ["Paper towels"]),
        (floor, "fair", "Fair"), (floor, " 3 ", "Poor"), (floor, "na", "N/A"),
        (shift, "NIGHT", "Night"), (shift, "1", "Morning"),
        (stars, "4", 4), (stars, "4/5", 4), (stars, "****", 4), (stars, "\u{2605}\u{2605}\u{2606}\u{2606}\u{2606}", 2),
        (stars, "[***--]", 3), (stars, "0", 0), (stars, "n/a", "N/A"),
        (field("pass_fail"), "PASS", "pass"), (field("pass_fail"), "f", "fail"), (field("pass_fail"), "N/A", "N/A"),
        (field("signature"), " Dana Reyes ", signature("Dana Reyes")),
        (repairs, "Fixture=Sink;Problem=Leak", [["Fixture": "Sink", "Problem": "Leak"]]),
        (repairs, "problem = cracked = badly ; URGENCY=high", [["Problem": "cracked = badly", "Urgency": "high"]]),
        (repairs, "Problem=hot\\;cold", [["Problem": "hot;cold"]]),
    ]

    static let refusedCases: [(FieldDefinition, String, String)] = [
        (field("text"), "   ", "nothing was typed ('   '); type the text, or use --clear to unset the answer"),
        (field("email"), "dana", "'dana' is not an email address; type one like someone@example.org"),
        (field("number"), "1,5", "'1,5' is not a number; use a point for decimals (1.5) and no thousands separators"),
        (
            field("number"), "12 kg",
            "'12 kg' is not a number; type digits with a point for decimals, like 12, -3.5 or 1e3"
        ),
        (
            field("date"), "2026-02-30",
            "'2026-02-30' is not a real date; type it as YYYY-MM-DD, like 2026-03-01, or today"
        ),
        (
            field("checkbox"), "maybe",
            "'maybe' is not a checkbox answer; type yes or no (also y/n, true/false, 1/0, x), or n/a"
        ),
        (
            supplies, "1,Bleach",
            "'Bleach' is not one of the options; type options separated by commas, by text or number (1 Soap, 2 Paper towels, 3 Toilet paper)"
        ),
        (supplies, "soap,1", "'Soap' is listed twice in 'soap,1'; list each option once"),
        (floor, "4", "'4' is not one of the options; type an option's text or number (1 Good, 2 Fair, 3 Poor), or n/a"),
        (
            shift, "n/a",
            "'n/a' is not one of the options; type an option's text or number (1 Morning, 2 Evening, 3 Night)"
        ),
        (
            stars, "6",
            "'6' is out of range; type a whole number from 1 to 5 (or 4/5, ****), 0 to clear the rating, or n/a"
        ),
        (
            stars, "4/10",
            "'4/10' is out of 10, but this rating is out of 5; type 4/5 or a whole number from 1 to 5 (or 4/5, ****), 0 to clear the rating, or n/a"
        ),
        (
            stars, "great",
            "'great' is not a rating; type a whole number from 1 to 5 (or 4/5, ****), 0 to clear the rating, or n/a"
        ),
        (field("pass_fail"), "ok", "'ok' is not pass or fail; type pass (p), fail (f) or n/a"),
        (
            field("signature"), "",
            "nothing was typed (''); type the signer's full name, or use --clear to unset the answer"
        ),
        (
            field("image", id: "14", label: "Photos"), "floor.jpg",
            "field '14' (Photos) takes photos, not typed text ('floor.jpg'); attach them with: jqc photo add 6f1c2a7e-3b7d-4c55-9a51-2f4e8f0c9d11 --field 14 FILE"
        ),
        (repairs, "Colour=red", "'Colour' is not a column of this table; the columns are Fixture, Problem, Urgency"),
        (
            repairs, "Sink",
            "'Sink' has no '='; type one row as Fixture=...;Problem=... (columns: Fixture, Problem, Urgency)"
        ),
        (field("section", label: "Kitchen"), "yes", "'Kitchen' is a section heading; it takes no answer"),
        (field("label", label: "Read this first"), "ok", "'Read this first' is a label; it takes no answer"),
        (
            field("geo", id: "q9"), "51.5,-0.1",
            "'51.5,-0.1' cannot be read: field 'q9' uses field type 'geo', which this version of jqc does not support; update jqc to answer it, or set its JSON with --value-json"
        ),
    ]

    static let todayCases: [(Double, String)] = [
        (0.0, "1970-01-01"), (-1.0, "1969-12-31"), (951_782_400.0, "2000-02-29"), (1_772_409_599.0, "2026-03-01"),
        (1_772_409_600.0, "2026-03-02"),
    ]
}
