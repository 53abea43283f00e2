import FieldTypes
import Models
import Testing

@Suite("Registry")
struct RegistryTests {
    @Test("the built-in registry holds the sixteen product types, each under its own name")
    func builtIn() throws {
        #expect(
            registry.names == [
                "checkbox", "checkbox_group", "date", "email", "image", "label", "number", "pass_fail",
                "radio", "rating", "section", "select", "signature", "table", "text", "textarea",
            ])
        #expect(try FieldTypeRegistry(BuiltInFieldTypes.all).names == registry.names)
    }

    @Test("registering a name twice fails and says which name")
    func duplicate() {
        #expect(throws: FieldTypesError(.duplicateFieldType, "field type 'text' is registered twice")) {
            try FieldTypeRegistry([TextField(), EmailField(), TextField()])
        }
        var copy = registry
        #expect(throws: FieldTypesError(.duplicateFieldType, "field type 'rating' is registered twice")) {
            try copy.register(RatingField())
        }
    }

    @Test("a malformed type name is refused")
    func badName() {
        #expect(
            throws: FieldTypesError(
                .invalidFieldTypeName,
                "field type name 'Geo Point' is not valid; use lowercase letters, digits and underscores")
        ) {
            try FieldTypeRegistry([UnsupportedFieldType(name: "Geo Point")])
        }
    }

    @Test("asking for an unknown name says it is not registered; resolving it degrades to unsupported")
    func unknown() throws {
        #expect(registry.type(named: "geo") == nil)
        #expect(throws: FieldTypesError(.unknownFieldType, "field type 'geo' is not registered")) {
            try registry.require(named: "geo")
        }
        #expect(try registry.require(named: "rating").name == "rating")
        let resolved = registry.resolve(field("geo"))
        #expect(resolved is UnsupportedFieldType)
        #expect(resolved.name == "geo")
    }

    @Test("a registry is a value: registering into a copy leaves the original alone")
    func valueSemantics() throws {
        var empty = FieldTypeRegistry()
        try empty.register(TextField())
        #expect(empty.names == ["text"])
        #expect(FieldTypeRegistry().names.isEmpty)
        #expect(empty.resolve(field("rating")) is UnsupportedFieldType)
    }
}

@Suite("Completing a form")
struct CompletionTests {
    let schema = FormSchema(fields: [
        FieldDefinition(id: "s1", type: "section", label: "Restroom"),
        FieldDefinition(id: "1", type: "text", label: "Restroom name", required: true),
        FieldDefinition(id: "2", type: "rating", label: "Floors", required: true),
        FieldDefinition(
            id: "3", type: "checkbox_group", label: "Supplies", required: true, options: ["Soap", "Towels"]),
        FieldDefinition(id: "4", type: "image", label: "Photos", required: true),
        FieldDefinition(id: "5", type: "email", label: "Contact"),
        FieldDefinition(id: "q9", type: "geo", label: "Location", required: true),
        FieldDefinition(id: "q10", type: "geo", label: "Bin location"),
        FieldDefinition(id: "6", type: "pass_fail", label: "Exits clear", required: true),
    ])

    @Test("every missing required field is listed, blank answers count as missing, and bad answers too")
    func everyProblem() {
        let answers = Answers(["1": "  ", "2": 0, "3": [], "5": "not-an-email", "6": "Pass", "s1": "stray"])
        let problems = registry.completionProblems(schema, answers: answers)
        #expect(
            problems.map(\.message) == [
                "field '1' (Restroom name) is required and has no answer",
                "field '2' (Floors) is required and has no answer",
                "field '3' (Supplies) is required and has no answer",
                "field '4' (Photos) is required and has no answer",
                "field '5' (Contact): 'not-an-email' is not an email address; type one like someone@example.org",
                "field 'q9' uses field type 'geo', which this version of jqc does not support; update jqc to answer it",
                "field '6' (Exits clear): a pass/fail answer must be \"pass\", \"fail\" or \"N/A\", not 'Pass'",
            ])
        #expect(
            problems.map(\.kind) == [
                .missingRequired, .missingRequired, .missingRequired, .missingRequired,
                .invalidAnswer, .unsupportedRequired, .invalidAnswer,
            ])
    }

    @Test("a complete form has no problems, and an unknown type's preserved answer satisfies it")
    func complete() {
        let answers = Answers([
            "1": "Lobby", "2": 4, "3": ["Soap"], "4": [.string(photoA)],
            "q9": ["lat": 51.5, "lon": -0.1], "6": "N/A",
        ])
        #expect(registry.completionProblems(schema, answers: answers) == [])
    }

    @Test(
        "the server is told about wrong types, unknown ids and answers to headings; missing answers are not its concern here"
    )
    func validateAnswers() {
        let answers = Answers(["2": "5", "99": "x", "s1": "stray", "q10": ["anything": true], "3": ["Soap"], "1": ""])
        let problems = registry.validateAnswers(schema, answers: answers)
        #expect(
            problems.map(\.message) == [
                "field 's1' (Restroom) is a section field and takes no answer; remove the answer",
                "field '2' (Floors): a rating must be a whole number from 0 to 5 (or \"N/A\"), not a string: \"5\"",
                "field '99' is not in this form; remove its answer",
            ])
        #expect(problems.map(\.kind) == [.notAnswerable, .invalidAnswer, .unknownField])
    }
}

@Suite("Re-inspection")
struct PrefillTests {
    static let schema = FormSchema(fields: [
        field("text", id: "text"), field("email", id: "email"), field("textarea", id: "textarea"),
        field("number", id: "number"), field("date", id: "date"), field("checkbox", id: "checkbox"),
        FieldDefinition(id: "group", type: "checkbox_group", options: ["Soap", "Towels"]),
        FieldDefinition(id: "radio", type: "radio", options: ["Good", "Poor"]),
        FieldDefinition(id: "select", type: "select", options: ["Day", "Night"]),
        field("rating", id: "rating"), field("pass_fail", id: "pass_fail"), field("signature", id: "signature"),
        field("image", id: "image"), FieldDefinition(id: "table", type: "table", columns: ["Area"]),
        field("section", id: "section"), field("geopoint", id: "geo"),
        FieldDefinition(id: "changed", type: "radio", options: ["Yes", "No"]),
        field("text", id: "blank"),
    ])
    static let parent = Answers([
        "text": "Lobby", "email": "dana@example.org", "textarea": "a\nb", "number": 3, "date": "2026-03-01",
        "checkbox": true, "group": ["Soap"], "radio": "Good", "select": "Night", "rating": 4, "pass_fail": "fail",
        "signature": signature("Dana"), "image": [.string(photoA)], "table": [["Area": "Sink"]], "section": "x",
        "geo": ["lat": 1], "changed": "Maybe", "blank": "", "removed": "kept nowhere",
    ])
    static let copied: Set<FieldID> = [
        "text", "email", "textarea", "number", "date", "checkbox", "group", "radio", "select", "table",
    ]

    @Test("each field's answer is copied or not by its type's policy", arguments: schema.fields)
    func policy(_ definition: FieldDefinition) {
        let prefilled = registry.prefill(from: Self.parent, schema: Self.schema)
        let expected = Self.copied.contains(definition.id) ? Self.parent[definition.id] : nil
        #expect(prefilled[definition.id] == expected)
    }

    @Test("nothing outside the schema is carried over")
    func onlySchemaFields() {
        let prefilled = registry.prefill(from: Self.parent, schema: Self.schema)
        #expect(Set(prefilled.answeredIDs) == Self.copied)
    }
}

@Suite("Integer field ids")
struct IntegerIDTests {
    @Test("a schema with integer ids from JSON text works end to end with string answer keys")
    func endToEnd() throws {
        let json = try JSONValue.parse(
            #"{"fields": [{"id": 5, "type": "rating", "label": "Floors", "required": true}, {"id": 6, "type": "pass_fail", "label": "Exits"}]}"#
        )
        let schema = try FormSchema.decode(json).get()
        #expect(schema.fields.map(\.id.rawValue) == ["5", "6"])
        #expect(registry.check(schema) == [])

        var answers = Answers()
        #expect(
            registry.completionProblems(schema, answers: answers).map(\.message) == [
                "field '5' (Floors) is required and has no answer"
            ])
        for definition in schema.fields {
            answers[definition.id] = try registry.parse(
                definition.type == "rating" ? "4" : "pass", for: definition, context: context)
        }
        let wire = answers.json.canonicalString()
        #expect(wire == #"{"5":4,"6":"pass"}"#)
        #expect(!wire.contains("Optional"))

        let received = try #require(Answers(json: try JSONValue.parse(wire)))
        #expect(registry.completionProblems(schema, answers: received) == [])
        #expect(registry.score(schema.fields[0], received["5"]) == .scored(fraction: 0.8, passed: true))
        #expect(registry.validateAnswers(schema, answers: received) == [])
    }
}
