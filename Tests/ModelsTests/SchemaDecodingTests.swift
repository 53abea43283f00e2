import Testing
import Models

@Suite("Form schema decoding")
struct SchemaDecodingTests {
    @Test("common keys are read and unknown keys are kept")
    func commonKeys() throws {
        let json = try JSONValue.parse(
            #"""
            {"fields": [{"id": 1, "type": "rating", "label": "Floors", "required": true, "max": 10,
                         "weight": 2.5, "critical": true, "col": 0, "row": 1, "col_span": 6, "row_span": 1,
                         "hint": "look under the sinks"}]}
            """#)
        let field = try FormSchema.decode(json).get().fields[0]
        #expect(field.id == "1")
        #expect(field.type == "rating")
        #expect(field.label == "Floors")
        #expect(field.required)
        #expect(field.max == 10)
        #expect(field.weight == 2.5)
        #expect(field.critical)
        #expect(field.col == 0 && field.row == 1 && field.colSpan == 6 && field.rowSpan == 1)
        #expect(field.raw["hint"] == .string("look under the sinks"))
    }

    @Test(
        "a field changed through its typed properties is sent on changed: the object a field type reads agrees with them, unknown keys kept"
    )
    func typedPropertiesAreTheSourceOfTruth() throws {
        let json = try JSONValue.parse(
            #"""
            {"fields": [{"id": "q1", "type": "rating", "label": "Floors", "required": true, "max": 10, "weight": 2,
                         "unit": "points"}]}
            """#)
        var field = try FormSchema.decode(json).get().fields[0]
        field.label = "Floors and skirting"
        field.max = 5
        field.required = false
        field.weight = nil
        field.critical = true
        field.colSpan = 6
        #expect(field.raw["label"] == .string("Floors and skirting"))
        #expect(field.raw["max"] == .integer(5))
        #expect(field.raw["required"] == nil)
        #expect(field.raw["weight"] == nil)
        #expect(field.raw["critical"] == .bool(true))
        #expect(field.raw["col_span"] == .integer(6))
        #expect(field.raw["unit"] == .string("points"))
        // Read back, the object gives the same field.
        let again = try FormSchema.decode(.object(["fields": .array([field.json])])).get().fields[0]
        #expect(again == field)
    }

    @Test("every problem is listed at once, each naming its field")
    func everyProblem() throws {
        let json = try JSONValue.parse(
            #"""
            {"fields": [{"id": 1, "type": "text", "label": 3},
                         {"type": "radio", "label": "No id"},
                         {"id": "q3", "type": "rating", "required": "yes", "max": "five", "weight": -1},
                         {"id": "q4", "type": "radio", "options": ["a", 2]},
                         {"id": true, "type": ""}]}
            """#)
        guard case .failure(let errors) = FormSchema.decode(json) else {
            Issue.record("a malformed schema was accepted")
            return
        }
        let lines = errors.problems.map(\.description)
        #expect(lines.contains("field '1': 'label' must be a string, not a number"))
        #expect(lines.contains("field #2: the field has no 'id'; give it an integer or string id"))
        #expect(lines.contains("field 'q3': 'required' must be true or false, not a string"))
        #expect(lines.contains("field 'q3': 'max' must be a whole number, not a string"))
        #expect(lines.contains("field 'q3': 'weight' must be a number of zero or more, not -1"))
        #expect(lines.contains("field 'q4': 'options' item 2 must be a string, not a number"))
        #expect(lines.contains("field #5: 'id' must be an integer or a non-empty string, not a boolean"))
        #expect(lines.contains("field #5: 'type' is empty; name one, for example \"text\""))
        #expect(errors.problems.count == 8)
    }

    @Test(
        "a schema that is not an object with a fields list says so",
        arguments: [
            ("[]", "must be an object"), ("{}", "has no 'fields' list"), (#"{"fields": 3}"#, "'fields' must be a list"),
        ])
    func shape(json: String, message: String) throws {
        guard case .failure(let errors) = FormSchema.decode(try JSONValue.parse(json)) else {
            Issue.record("accepted \(json)")
            return
        }
        #expect(errors.description.contains(message))
    }

    @Test("a template keeps its form_schema verbatim, unknown keys included")
    func templateVerbatim() throws {
        let json = try JSONValue.parse(
            #"""
            {"id": 12, "name": "Washroom", "version": 3, "owner": "ops",
             "form_schema": {"fields": [{"id": 1, "type": "geopoint", "label": "Where", "precision": 5}], "layout": "grid"}}
            """#)
        let template = try Template.decode(json).get()
        #expect(template.id == "12")
        #expect(template.version == 3)
        #expect(template.schema.fields[0].type == "geopoint")
        #expect(template.rawSchema["layout"] == .string("grid"))
        #expect(template.rawSchema == json["form_schema"])
    }

    @Test("a template without a usable schema names the template")
    func templateErrors() throws {
        guard case .failure(let errors) = Template.decode(try JSONValue.parse(#"{"id": "t1", "name": "X"}"#)) else {
            Issue.record("accepted a template without form_schema")
            return
        }
        #expect(errors.description == "template 't1': the template has no 'form_schema'")
    }
}
