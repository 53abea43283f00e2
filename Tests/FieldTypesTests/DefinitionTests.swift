import FieldTypes
import Models
import Testing

@Suite("Field definitions")
struct DefinitionTests {
    @Test("good definitions have no problems", arguments: Cases.goodCases)
    func goodDefinition(_ definition: FieldDefinition) {
        #expect(registry.check(FormSchema(fields: [definition])) == [])
    }

    @Test("each bad definition gets every problem, naming the field and the fix", arguments: Cases.badCases)
    func badDefinition(_ definition: FieldDefinition, expected: [String]) {
        let problems = registry.check(FormSchema(fields: [definition]))
        #expect(problems.map(\.description) == expected)
        #expect(problems.allSatisfy { $0.fieldIndex == 0 && $0.fieldID == definition.id })
    }

    @Test("problems across a form are all reported, each at its position")
    func wholeForm() {
        let schema = FormSchema(fields: [
            field("text", id: "a"),
            FieldDefinition(id: "b", type: "radio", label: "No options"),
            FieldDefinition(id: "c", type: "geo", label: "Unknown but critical", critical: true),
            FieldDefinition(id: "d", type: "select", label: "Critical menu", options: ["A"], critical: true),
        ])
        let problems = registry.check(schema)
        #expect(problems.map(\.fieldIndex) == [1, 3])
        #expect(problems.map(\.fieldID) == ["b", "d"])
    }

    @Test("lint places fields at the last rows a number can hold without failing, and still finds their overlap")
    func farRows() {
        let schema = FormSchema(fields: [
            FieldDefinition(id: "a", type: "text", label: "Far down", row: Int.max - 1, rowSpan: Int.max),
            FieldDefinition(id: "b", type: "text", label: "Last row", col: 3, row: Int.max - 1, colSpan: 2),
        ])
        #expect(
            registry.lint(schema).map(\.description) == [
                "field 'b': covers row \(Int.max - 1), column 3, which field 'a' also covers (rows and columns count from 0); move one of them or shrink its span"
            ])
    }
}

private enum Cases {
    static let goodCases: [FieldDefinition] = [
        floor, shift, supplies, stars, repairs,
        FieldDefinition(id: "r10", type: "rating", label: "Ten", max: 10, extra: ["pass_min": 7]),
        FieldDefinition(id: "r1", type: "rating", label: "One star", max: 1),
        field("text"), field("email"), field("number"), field("date"), field("checkbox"),
        field("pass_fail"), field("signature"), field("image"), field("section"), field("label"),
    ]

    static let badCases: [(FieldDefinition, [String])] = [
        (
            FieldDefinition(id: "q1", type: "radio", label: "Floor"),
            ["field 'q1': a radio field needs an 'options' list; add the choices as strings"]
        ),
        (
            FieldDefinition(id: "q2", type: "select", label: "Shift", options: []),
            ["field 'q2': the 'options' list of a select field is empty; add at least one choice"]
        ),
        (
            FieldDefinition(
                id: "q3", type: "checkbox_group", label: "Kit", options: ["Mop", "", "mop ", "Bucket", "MOP"]),
            [
                "field 'q3': option 2 is blank; give every option some text",
                "field 'q3': option 'mop ' appears more than once (options are matched ignoring case); keep one",
            ]
        ),
        (
            FieldDefinition(id: "q4", type: "rating", label: "Floors", max: 11),
            ["field 'q4': 'max' is 11, but a rating scale must be from 1 to 10 (default 5); change 'max'"]
        ),
        (
            FieldDefinition(id: "q5", type: "rating", label: "Floors", max: 0, extra: ["pass_min": 6]),
            [
                "field 'q5': 'max' is 0, but a rating scale must be from 1 to 10 (default 5); change 'max'",
                "field 'q5': 'pass_min' must be a whole number from 1 to 5 (the lowest passing rating), not a number: 6; change it or remove it",
            ]
        ),
        (
            FieldDefinition(id: "q6", type: "rating", label: "Floors", extra: ["pass_min": "three"]),
            [
                "field 'q6': 'pass_min' must be a whole number from 1 to 5 (the lowest passing rating), not a string: \"three\"; change it or remove it"
            ]
        ),
        (
            FieldDefinition(id: "q7", type: "table", label: "Repairs"),
            ["field 'q7': a table field needs a 'columns' list; add the column names as strings"]
        ),
        (
            FieldDefinition(id: "q8", type: "table", label: "Repairs", columns: ["Area", " ", "area"]),
            [
                "field 'q8': column 2 has a blank name; name every column",
                "field 'q8': column 'area' appears more than once (columns are matched ignoring case); keep one",
            ]
        ),
        (
            FieldDefinition(id: "s1", type: "section", label: "", required: true),
            [
                "field 's1': a section field shows its 'label' and has none; add the text to show",
                "field 's1': a section field takes no answer, so it cannot be required; remove 'required'",
            ]
        ),
        (
            FieldDefinition(id: "l1", type: "label", label: "Read me", critical: true),
            [
                "field 'l1': 'critical' applies only to scored types (checkbox, pass_fail, radio, rating), not label; remove 'critical' or change the type"
            ]
        ),
        (
            FieldDefinition(id: "g1", type: "text", label: "Wide", col: 13, row: -1, colSpan: 0, rowSpan: 0),
            [
                "field 'g1': 'col' is 13, outside the 12-column grid; use 0 to 12",
                "field 'g1': 'row' is -1; rows start at 0, use 0 or more",
                "field 'g1': 'col_span' is 0; a field spans 1 to 12 columns",
                "field 'g1': 'row_span' is 0; a field spans at least 1 row",
            ]
        ),
    ]
}
