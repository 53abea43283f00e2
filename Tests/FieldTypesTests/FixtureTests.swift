import FieldTypes
import Models
import Testing
import TestSupport

@Suite("Template fixtures")
struct FixtureTests {
    @Test("the all-field-types template loads cleanly and a typed run through it completes and scores")
    func allFieldTypes() throws {
        let template = try Fixtures.template("all-field-types.json").get()
        #expect(template.id == "12")
        #expect(registry.check(template.schema) == [])
        let schema = template.schema
        #expect(Set(schema.fields.map(\.type)) == Set(registry.names))
        #expect(schema.fields.map(\.id.rawValue).contains("contact_email"))
        #expect(schema.field("12")?.critical == true)
        #expect(schema.field("11")?.effectiveWeight == 3)
        #expect(schema.field("13")?.colSpan == 12)

        #expect(
            registry.completionProblems(schema, answers: Answers()).map(\.fieldID) == [
                "3", "5", "9", "11", "12", "sig",
            ])

        let typedAnswers: [FieldID: String] = [
            "3": "Ground floor east", "contact_email": "lee@example.org", "5": "4", "6": "today", "7": "yes",
            "8": "1,2", "9": "good", "10": "2", "11": "****", "12": "p", "13": "Mirror cracked",
            "15": "Fixture=Mirror;Urgency=low",
            "sig": "Dana Reyes",
        ]
        var answers = Answers()
        for (id, input) in typedAnswers {
            let definition = try #require(schema.field(id))
            answers[id] = try registry.parse(input, for: definition, context: context)
        }
        answers["14"] = [.string(photoA)]
        #expect(registry.completionProblems(schema, answers: answers) == [])
        #expect(registry.validateAnswers(schema, answers: answers) == [])

        let scores = schema.fields.map { registry.score($0, answers[$0.id]) }.filter { $0 != .notScoreable }
        #expect(
            scores == [
                .scored(fraction: 1, passed: true), .scored(fraction: 1, passed: true),
                .scored(fraction: 0.8, passed: true), .scored(fraction: 1, passed: true),
            ])
    }

    @Test("choice fields without options are each reported")
    func missingOptions() throws {
        let template = try Fixtures.template("malformed-missing-options.json").get()
        #expect(
            registry.check(template.schema).map(\.description) == [
                "field '1': a radio field needs an 'options' list; add the choices as strings",
                "field '2': the 'options' list of a select field is empty; add at least one choice",
                "field '3': a checkbox_group field needs an 'options' list; add the choices as strings",
            ])
    }

    @Test("the integer id 5 and the string id \"5\" are the same id, so the second is refused")
    func duplicateIDs() throws {
        let problems = try Fixtures.template("malformed-duplicate-ids.json").errorProblems
        #expect(
            problems == [
                SchemaProblem(
                    fieldIndex: 1, fieldID: "5",
                    message: "the id is already used by field #1; give each field its own id")
            ])
    }

    @Test("wrong-typed keys are each reported, every one in the same pass")
    func wrongTypes() throws {
        let problems = try Fixtures.template("malformed-wrong-types.json").errorProblems
        #expect(
            problems.map(\.description) == [
                "field '1': 'label' must be a string, not a number",
                "field '2': 'required' must be true or false, not a string",
                "field '3': 'max' must be a whole number, not a string",
                "field '4': 'weight' must be a number of zero or more, not -1",
                "field '5': 'options' item 1 must be a string, not a number",
                "field '5': 'options' item 2 must be a string, not a boolean",
            ])
    }

    @Test("a truncated file is refused as not JSON, with a message saying so")
    func notJSON() {
        #expect {
            _ = try Fixtures.json("templates/malformed-not-json.json")
        } throws: { error in
            guard let error = error as? ModelsError else { return false }
            return error.code == .invalidJSON && error.message.hasPrefix("the text is not valid JSON")
        }
    }

    @Test(
        "an unknown type loads, shows as unsupported, keeps its answer and blocks completion only when required and empty"
    )
    func unknownType() throws {
        let template = try Fixtures.template("unknown-type.json").get()
        let schema = template.schema
        #expect(registry.check(schema) == [])
        let location = try #require(schema.field("2"))
        #expect(registry.resolve(location) is UnsupportedFieldType)
        #expect(location.raw["precision_m"] == 5)

        #expect(
            registry.completionProblems(schema, answers: Answers(["1": "Car park", "3": 2])).map(\.message) == [
                "field '2' uses field type 'geopoint', which this version of jqc does not support; update jqc to answer it"
            ])
        let kept: JSONValue = ["lat": 51.5, "lon": -0.1]
        let answers = Answers(["1": "Car park", "2": kept, "3": 2])
        #expect(registry.completionProblems(schema, answers: answers) == [])
        #expect(registry.validateAnswers(schema, answers: answers) == [])
        #expect(
            registry.display(location, kept, style: .plain)
                == "unsupported field type 'geopoint': {\"lat\":51.5,\"lon\":-0.1}")
        #expect(registry.score(location, kept) == .notScoreable)
    }

    @Test("a required section heading is reported")
    func requiredSection() throws {
        let template = try Fixtures.template("malformed-display-required.json").get()
        #expect(
            registry.check(template.schema).map(\.description) == [
                "field 's1': a section field takes no answer, so it cannot be required; remove 'required'"
            ])
    }

    @Test("critical on free text is reported, critical on pass/fail is fine")
    func criticalText() throws {
        let template = try Fixtures.template("malformed-critical-text.json").get()
        let problems = registry.check(template.schema)
        #expect(
            problems.map(\.description) == [
                "field '1': 'critical' applies only to scored types (checkbox, pass_fail, radio, rating), not text; remove 'critical' or change the type"
            ])
        #expect(problems.map(\.fieldIndex) == [0])
    }
}

extension Result where Failure == SchemaErrors {
    /// The problems of a decode expected to fail; empty when it succeeded.
    var errorProblems: [SchemaProblem] {
        if case .failure(let errors) = self { return errors.problems }
        return []
    }
}
