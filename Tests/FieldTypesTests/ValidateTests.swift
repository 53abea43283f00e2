import FieldTypes
import Models
import Testing

@Suite("Answer validation")
struct ValidateTests {
    @Test("contract-shaped answers are accepted", arguments: Cases.accepted)
    func accepted(_ definition: FieldDefinition, _ answer: JSONValue) {
        #expect(registry.resolve(definition).validate(answer, for: definition) == nil)
    }

    @Test("wrong answers are refused with one line saying why", arguments: Cases.refusedCases)
    func refused(_ definition: FieldDefinition, _ answer: JSONValue, _ message: String) {
        #expect(registry.resolve(definition).validate(answer, for: definition) == message)
    }
}

private enum Cases {
    static let accepted: [(FieldDefinition, JSONValue)] = [
        (field("text"), "Lobby" as JSONValue),
        (field("email"), "dana@example.org"),
        (field("number"), 12), (field("number"), -3.5),
        (field("date"), "2024-02-29"),
        (field("checkbox"), true), (field("checkbox"), "true"), (field("checkbox"), "N/A"),
        (supplies, ["Soap", "Toilet paper"]),
        (floor, "Fair"), (floor, "N/A"),
        (shift, "Night"),
        (stars, 0), (stars, 5), (stars, "N/A"),
        (FieldDefinition(id: "r", type: "rating", max: 10), 10),
        (field("pass_fail"), "pass"), (field("pass_fail"), "fail"), (field("pass_fail"), "N/A"),
        (field("signature"), signature("Dana Reyes")), (field("signature"), .string(photoA)),
        (field("image"), [.string(photoA), .string(photoB)]),
        (repairs, [["Fixture": "Sink", "Problem": "Leak"], ["Urgency": "high"]]),
        (field("geopoint"), ["lat": 51.5]),
    ]

    static let refusedCases: [(FieldDefinition, JSONValue, String)] = [
        (field("text"), 42 as JSONValue, "a text answer must be a string, not a number: 42"),
        (
            field("email"), "dana at example",
            "'dana at example' is not an email address; type one like someone@example.org"
        ),
        (field("number"), "12", "a number answer must be a JSON number, not a string: \"12\""),
        (
            field("date"), "2026-02-30",
            "'2026-02-30' is not a real date; type it as YYYY-MM-DD, like 2026-03-01, or today"
        ),
        (
            field("date"), "2100-02-29",
            "'2100-02-29' is not a real date; type it as YYYY-MM-DD, like 2026-03-01, or today"
        ),
        (field("checkbox"), "yes", "a checkbox answer must be true or false (or \"N/A\"), not a string: \"yes\""),
        (supplies, ["Soap", "Bleach"], "'Bleach' is not one of the options (1 Soap, 2 Paper towels, 3 Toilet paper)"),
        (supplies, ["Soap", "Soap"], "'Soap' is chosen twice; list each option once"),
        (floor, "good", "'good' is not one of the options (1 Good, 2 Fair, 3 Poor)"),
        (shift, "N/A", "'N/A' is not one of the options (1 Morning, 2 Evening, 3 Night)"),
        (stars, 6, "the rating 6 is out of range; it must be from 0 to 5"),
        (stars, 3.5, "a rating must be a whole number from 0 to 5 (or \"N/A\"), not a number: 3.5"),
        (stars, "4", "a rating must be a whole number from 0 to 5 (or \"N/A\"), not a string: \"4\""),
        (field("pass_fail"), "Pass", "a pass/fail answer must be \"pass\", \"fail\" or \"N/A\", not 'Pass'"),
        (
            field("signature"), signature("Dana", sha256: "abc"),
            "a signature needs 'sha256' as 64 hexadecimal characters"
        ),
        (field("signature"), signature(" "), "a signature needs a non-empty 'signer' string"),
        (
            field("image"), ["IMG_0001.jpg"],
            "item 1 of the image answer must be a photo local id (a UUID), not a string: \"IMG_0001.jpg\""
        ),
        (
            repairs, [["Colour": "red"]],
            "row 1 has column 'Colour', which is not one of the table's columns (Fixture, Problem, Urgency)"
        ),
        (repairs, [["Fixture": "Sink"], ["Fixture": 3]], "row 2, column 'Fixture' must be text, not a number: 3"),
        (
            field("section", id: "s1", label: "Kitchen"), "",
            "field 's1' (Kitchen) is a section heading and takes no answer; remove the answer (a string: \"\")"
        ),
    ]
}
