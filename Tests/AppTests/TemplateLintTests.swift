import Foundation
import Models
import Testing
import TestSupport

/// `jqc templates lint FILE` on fixture templates: every problem of each kind
/// listed at once with its field and a fix, exit 4; a clean file exits 0.
@Suite("jqc templates lint")
struct TemplateLintTests {
    static let critical =
        "'critical' applies only to scored types (checkbox, pass_fail, radio, rating, temperature), not"
    static let cases: [(String, [String])] = [
        (
            "lint-unknown-type.json",
            [
                "template 'lint-unknown': field 'b': field type 'thermometer' is not registered in this jqc; register the type or fix the name"
            ]
        ),
        (
            "lint-duplicate-ids.json",
            ["template 'lint-dup': field 'a': the id is already used by field #1; give each field its own id"]
        ),
        (
            "lint-bad-options.json",
            [
                "template 'lint-options': field 'a': option 'good' appears more than once (options are matched ignoring case); keep one",
                "template 'lint-options': field 'a': option 3 is blank; give every option some text",
                "template 'lint-options': field 'b': a select field needs an 'options' list; add the choices as strings",
            ]
        ),
        (
            "lint-grid-overlap.json",
            [
                "template 'lint-overlap': field 'b': covers row 0, column 4, which field 'a' also covers (rows and columns count from 0); move one of them or shrink its span",
                "template 'lint-overlap': field 'd': covers row 2, column 6, which field 'c' also covers (rows and columns count from 0); move one of them or shrink its span",
            ]
        ),
        (
            "lint-grid-span.json",
            [
                "template 'lint-span': field 'a': 'col' 8 with 'col_span' 6 reaches column 13, past the 12-column grid (columns 0 to 11); make 'col_span' at most 4 or move the field left",
                "template 'lint-span': field 'b': 'col_span' is 13; a field spans 1 to 12 columns",
                "template 'lint-span': field 'c': 'col' is 12, past the last column of the 12-column grid (columns count from 0 to 11); use 0 to 11",
            ]
        ),
        (
            "lint-critical-not-scoreable.json",
            [
                "template 'lint-critical': field 'a': \(critical) text; remove 'critical' or change the type",
                "template 'lint-critical': field 'b': \(critical) duration; remove 'critical' or change the type",
            ]
        ),
        (
            "lint-required-display.json",
            [
                "template 'lint-display': field 'a': a section field takes no answer, so it cannot be required; remove 'required'",
                "template 'lint-display': field 'b': a label field takes no answer, so it cannot be required; remove 'required'",
            ]
        ),
        (
            "lint-all.json",
            [
                "template 'lint-all': field 'a': field type 'thermometer' is not registered in this jqc; register the type or fix the name",
                "template 'lint-all': field 'b': the 'options' list of a radio field is empty; add at least one choice",
                "template 'lint-all': field 'b': the id is already used by field #2; give each field its own id",
                "template 'lint-all': field 'b': \(critical) text; remove 'critical' or change the type",
                "template 'lint-all': field 'c': a section field takes no answer, so it cannot be required; remove 'required'",
                "template 'lint-all': field 'd': 'col' 8 with 'col_span' 6 reaches column 13, past the 12-column grid (columns 0 to 11); make 'col_span' at most 4 or move the field left",
                "template 'lint-all': field 'e': covers row 0, column 10, which field 'd' also covers (rows and columns count from 0); move one of them or shrink its span",
            ]
        ),
    ]

    @Test("each problem kind is listed with its field and a fix; exit 4", arguments: cases)
    func problems(file: String, expected: [String]) throws {
        let profile = try DemoProfile()
        let (status, document) = try profile.document(["templates", "lint", Fixtures.url("templates/\(file)").path])
        #expect(status == 4)
        #expect(document["error"]?["code"] == "TEMPLATE_INVALID")
        #expect(document["error"]?["problems"]?.arrayValue?.compactMap(\.stringValue) == expected)
        let text = try profile.jqc(["templates", "lint", Fixtures.url("templates/\(file)").path])
        #expect(text.status == 4)
        #expect(
            text.stderr.contains("has \(expected.count) problem\(expected.count == 1 ? "" : "s")."), "\(text.stderr)")
    }

    @Test(
        "import refuses what lint reports, listing every problem lint lists; a mistyped type gets a suggestion; nothing is imported"
    )
    func importAgreesWithLint() throws {
        let profile = try DemoProfile()
        let file = profile.path("four-problems.json")
        try Data(
            #"""
            {"templates": [{"id": "four", "name": "Four problems", "version": 1, "form_schema": {"fields": [
              {"id": "a", "type": "ratin", "label": "Floors"},
              {"id": "b", "type": "text", "label": "Notes", "critical": true},
              {"id": "c", "type": "radio", "label": "Odour", "options": []},
              {"id": "d", "type": "rating", "label": "Mirrors", "row": 0, "col": 8, "col_span": 6}
            ]}}]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: file))
        let (lintStatus, linted) = try profile.document(["templates", "lint", file])
        #expect(lintStatus == 4)
        let problems = linted["error"]?["problems"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(problems.count == 4, "\(problems)")
        #expect(
            problems.first
                == "template 'four': field 'a': field type 'ratin' is not registered in this jqc; did you mean 'rating'?"
        )

        let (status, refused) = try profile.document(["templates", "import", file])
        #expect(status == 4)
        #expect(refused["error"]?["code"] == "TEMPLATE_INVALID")
        #expect(
            refused["error"]?["problems"]?.arrayValue?.compactMap(\.stringValue) == problems,
            "import lists what lint lists")
        let human = try profile.jqc(["templates", "import", file])
        #expect(human.stderr.hasPrefix("jqc: '\(file)' has 4 problems; nothing was imported.\n"), "\(human.stderr)")
        #expect(human.stderr.contains("did you mean 'rating'?"))
        #expect(
            try profile.jqc(["start", "--template", "four", "--facility", "F-100"]).status == 3, "nothing was imported")

        // The mistyped type alone is refused too: a field of it could never be answered.
        let typo = profile.path("typo.json")
        try Data(
            #"{"templates": [{"id": "typo", "name": "Typo", "version": 1, "form_schema": {"fields": [{"id": 1, "type": "ratin", "label": "Floors"}]}}]}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: typo))
        let alone = try profile.jqc(["templates", "import", typo])
        #expect(alone.status == 4, "\(alone.stdout)")
        #expect(
            alone.stderr.contains(
                "field '1': field type 'ratin' is not registered in this jqc; did you mean 'rating'?"),
            "\(alone.stderr)")
        #expect(try profile.document(["templates"]).value.canonicalString().contains("typo") == false)
    }

    @Test("a file with no templates: nothing was imported, and it says why")
    func emptyImport() throws {
        let profile = try DemoProfile()
        for (kind, body) in [
            ("templates", #"{"templates": []}"#), ("facilities", #"{"facilities": []}"#),
            ("assignments", #"{"assignments": []}"#),
        ] {
            let file = profile.path("empty-\(kind).json")
            try Data(body.utf8).write(to: URL(fileURLWithPath: file))
            let outcome = try profile.jqc([kind, "import", file])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.hasPrefix("Nothing was imported: '\(file)' lists no \(kind)"), "\(outcome.stdout)")
            #expect(!outcome.stdout.contains("Imported 0"))
        }
    }

    @Test("imports count in English: one template, many facilities and areas, no 'Note' for areas")
    func importCounts() throws {
        let profile = try DemoProfile()
        let one = profile.path("one.json")
        try Data(
            #"{"templates": [{"id": "one", "name": "One", "version": 1, "form_schema": {"fields": [{"id": 1, "type": "rating", "label": "Floors"}]}}]}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: one))
        #expect(try profile.jqc(["templates", "import", one]).stdout.hasPrefix("Imported 1 template: one."))
        let sites = profile.path("sites.json")
        try Data(
            #"{"facilities": [{"id": "S-1", "name": "One"}, {"id": "S-2", "name": "Two"}], "areas": [{"id": "S-1-A", "facility_id": "S-1", "name": "Hall"}]}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: sites))
        let imported = try profile.jqc(["facilities", "import", sites])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Imported 2 facilities (S-1, S-2) and 1 area.\n"), "\(imported.stdout)")
        #expect(!imported.stdout.contains("Note:"))
    }

    @Test("a clean template using built-in and site types passes with exit 0")
    func clean() throws {
        let profile = try DemoProfile()
        let outcome = try profile.jqc(["templates", "lint", Fixtures.url("templates/lint-clean.json").path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasSuffix("1 template, no problems.\n"))
    }

    @Test(
        "ids with line breaks or terminal escapes are shown escaped: one line per problem, nothing sent to the terminal"
    )
    func hostileIDsStayOnOneLine() throws {
        let profile = try DemoProfile()
        let file = profile.path("hostile.json")
        let template =
            #"{"templates": [{"id": "t\n1", "name": "Hostile", "version": 1, "form_schema": {"fields": ["#
            + #"{"id": "a\u001b[31mred", "type": "thermometer"}, {"id": "b\u2028c", "type": "section", "required": true}]}}]}"#
        try Data(template.utf8).write(to: URL(fileURLWithPath: file))
        let outcome = try profile.jqc(["templates", "lint", file])
        #expect(outcome.status == 4)
        let lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 4, "the message and one line for each of the three problems: \(outcome.stderr)")
        #expect(!outcome.stderr.contains("\u{1B}"))
        #expect(!outcome.stderr.contains("\u{2028}"))
        #expect(
            outcome.stderr.contains(
                #"template 't\n1': field 'a\u{1B}[31mred': field type 'thermometer' is not registered"#))
        #expect(outcome.stderr.contains(#"field 'b\u{2028}c'"#))
    }
}
