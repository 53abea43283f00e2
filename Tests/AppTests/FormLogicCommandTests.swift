import Foundation
import Models
import Storage
import Testing
import TestSupport

/// Form logic through the real `jqc` on the demo template `washroom-logic`:
/// `explain`, `show`, the exports, `templates lint`/`import` and the runner.
@Suite("Form logic in jqc's commands")
struct FormLogicCommandTests {
    /// A washroom-logic draft with no shower (the shower section hidden) and a poor odour.
    func noShower(_ profile: DemoProfile) throws -> String {
        let id = try profile.start(["--template", "washroom-logic", "--facility", "F-100"])
        for (field, input) in [
            ("1", "pass"), ("3", "2"), ("1", "fail"), ("7", "8"), ("8", "2"), ("11", "Poor"), ("12", "drain"),
        ] {
            let outcome = try profile.jqc(["answer", id, field, input])
            try #require(outcome.status == 0, "answering \(field): \(outcome.stderr)")
        }
        return id
    }

    @Test(
        "explain prints the hiding condition as a tree with the value each leaf read; --json gives the same tree; --help exits 0"
    )
    func explain() throws {
        let profile = try DemoProfile()
        let id = try noShower(profile)
        let text = try profile.jqc(["explain", id, "3"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("hidden by condition"))
        #expect(text.stdout.contains("Section '2' is shown when:"))
        #expect(text.stdout.contains("field '1' eq \"pass\": read \"fail\" -> does not hold"), "\(text.stdout)")

        let (status, document) = try profile.document(["explain", id, "12"])
        #expect(status == 0)
        #expect(document["visible"] == true && document["required"] == true)
        #expect(document["required_when"]?["read"] == "Poor")
        #expect(document["required_when"]?["result"] == true)
        #expect(document["visible_when"]?["kind"] == "field" && document["visible_when"]?["op"] == "in")

        let calculated = try profile.document(["explain", id, "9"]).value
        #expect(calculated["calculated"] == true && calculated["value"] == 25)

        // Field 9 divides by field 7: with 7 at 0 it has no value, and explain says why.
        #expect(try profile.jqc(["answer", id, "7", "0"]).status == 0)
        let divided = try profile.jqc(["explain", id, "9"])
        #expect(
            divided.stdout.contains(
                "Calculated (calculate): now (no answer): division by zero in the calculation: field '7' is 0"),
            "\(divided.stdout)")
        #expect(
            try profile.document(["explain", id, "9"]).value["no_value_reason"]
                == "division by zero in the calculation: field '7' is 0")

        let help = try profile.jqc(["explain", "--help"])
        #expect(help.status == 0 && help.stdout.contains("LOCAL_ID") && help.stdout.contains("FIELD_ID"))
        let unknown = try profile.jqc(["explain", id, "99"])
        #expect(unknown.status == 3)
        #expect(unknown.stderr.split(separator: "\n").count == 1, "\(unknown.stderr)")
    }

    @Test("show and the breakdown mark hidden fields 'hidden by condition', and JSON keeps their keys")
    func show() throws {
        let profile = try DemoProfile()
        let id = try noShower(profile)
        try #require(try profile.jqc(["complete", id]).status == 0)
        let text = try profile.jqc(["show", id])
        #expect(text.stdout.contains("[3] Shower tiles: hidden by condition"), "\(text.stdout)")
        #expect(text.stdout.contains("[9] Broken share (%): 25  (calculated)"), "\(text.stdout)")
        let document = try profile.show(id)
        #expect(document["answers"]?.objectValue?.keys.contains("3") == true)
        #expect(document["answers"]?["3"] == .null, "complete dropped the hidden answer, the key stays")
        #expect(document["hidden_fields"] == ["2", "3", "4", "5", "14"])
        let tiles = document["score_breakdown"]?["fields"]?.arrayValue?.first { $0["field_id"] == "3" }
        #expect(tiles?["outcome"] == "hidden_by_condition")
        #expect(tiles?["possible"]?.numberValue == 0)
    }

    @Test("CSV and HTML exports keep a row for each hidden field, marked hidden by condition")
    func exports() throws {
        let profile = try DemoProfile()
        let id = try noShower(profile)
        let csvPath = profile.path("report.csv"), htmlPath = profile.path("report.html")
        #expect(try profile.jqc(["export", id, "--format", "csv", "-o", csvPath]).status == 0)
        #expect(try profile.jqc(["export", id, "--format", "html", "-o", htmlPath]).status == 0)
        let csv = try String(contentsOfFile: csvPath, encoding: .utf8)
        let row = csv.split(separator: "\r\n").first { $0.contains(",field,3,Shower tiles,") }
        #expect(row?.contains("hidden by condition,hidden_by_condition") == true, "\(String(describing: row))")
        let html = try String(contentsOfFile: htmlPath, encoding: .utf8)
        #expect(html.contains("hidden-by-condition"))
    }

    @Test(
        "templates lint lists every logic problem with its field and a fix; import refuses the file and imports nothing"
    )
    func lintAndImport() throws {
        let profile = try DemoProfile()
        let file = Fixtures.url("templates/lint-logic.json").path
        let (status, document) = try profile.document(["templates", "lint", file])
        #expect(status == 4)
        let problems = document["error"]?["problems"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(problems.count == 7, "\(problems)")
        for (field, words) in [
            ("a", "'zz', which is not in this form"), ("b", "a section that takes no answer"),
            ("c", "uses 'gt' on field 't'"), ("d", "with \"good\", but that field compares a number"),
            ("e", "fields 'e', 'f' form a cycle"), ("g", "cannot be used on a date field"),
            ("h", "has no 'op'"),
        ] {
            #expect(
                problems.contains { $0.contains("field '\(field)': ") && $0.contains(words) }, "\(field): \(problems)")
        }
        let imported = try profile.jqc(["templates", "import", file])
        #expect(imported.status == 4)
        #expect(imported.stderr.contains("nothing was imported"))
        #expect(try profile.jqc(["start", "--template", "lint-logic", "--facility", "F-100"]).status == 3)
    }

    @Test(
        "an operator this jqc does not know: import refuses it as lint does; arrived from a newer server, the field is shown and not typed, nothing lost"
    )
    func unknownOperator() throws {
        let profile = try DemoProfile()
        let file = Fixtures.url("templates/logic-unknown-operator.json").path
        let linted = try profile.document(["templates", "lint", file])
        let refused = try profile.document(["templates", "import", file])
        #expect(refused.status == 4 && linted.status == 4)
        #expect(refused.value["error"]?["problems"] == linted.value["error"]?["problems"], "import and lint agree")
        #expect(refused.value.canonicalString().contains("'matches_regex'"), "\(refused.value)")
        // A template a newer server sends keeps its place on this device, as a sync stores it.
        let document = try JSONValue.parse(try Data(contentsOf: URL(fileURLWithPath: file)))
        let object = try #require(document["templates"]?[0])
        let template = try #require(try? Template.decode(object).get())
        try LocalStore.open(at: (profile.home as NSString).appendingPathComponent("jqc.sqlite")).upsertTemplates([
            template
        ])
        let id = try profile.start(["--template", "logic-newer", "--facility", "F-100"])
        let typed = try profile.jqc(["answer", id, "2", "hello"])
        #expect(typed.status == 4)
        #expect(
            typed.stderr.contains("matches_regex") && typed.stderr.split(separator: "\n").count == 1, "\(typed.stderr)")
        #expect(try profile.jqc(["answer", id, "2", "--value-json", "\"kept\""]).status == 0)
        #expect(try profile.show(id)["answers"]?["2"] == "kept")
        let explained = try profile.jqc(["explain", id, "2"])
        #expect(explained.status == 0 && explained.stdout.contains("Unsupported here"))
        let shown = try profile.jqc(["show", id])
        #expect(
            shown.stdout.contains("[2] Notes: kept  (unsupported here: its logic uses operator 'matches_regex'"),
            "\(shown.stdout)")
    }

    @Test(
        "the runner skips hidden fields, shows calculated values without asking, and /jump to a hidden field says why")
    func runner() throws {
        let profile = try DemoProfile()
        let id = try profile.start(["--template", "washroom-logic", "--facility", "F-100"])
        // Shower absent: the next question is the fixtures count, not the tiles.
        let input = ["fail", "10", "3", "/jump 3", "/jump 9", "Good", "", "/q"].joined(separator: "\n") + "\n"
        let run = try profile.jqc(["run", id], stdin: input)
        #expect(run.status == 0, "\(run.stderr)")
        let out = run.stdout
        #expect(!out.contains("Shower tiles  ["), "a hidden field is never drawn: \(out)")
        #expect(out.contains("Fixtures counted"))
        #expect(out.contains("calculated: Broken share (%) = 30"), "\(out)")
        #expect(out.contains("calculated: Fixtures acceptable = "))
        #expect(
            out.contains(
                "Field '3' (Shower tiles) is hidden by condition: its section '2' (Shower) is shown only when field '1' eq \"pass\""
            ), "\(out)")
        #expect(
            out.contains("Field '9' (Broken share (%)) is calculated from other answers (now 30); it is never asked."))
        let answers = try profile.show(id)["answers"]
        #expect(answers?["9"] == 30 && answers?["10"] == "fail" && answers?["11"] == "Good")
    }
}
