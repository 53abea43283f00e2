import FieldTypes
import FormLogic
import Models
import Testing

/// The site team's types take part in conditions through the same protocol as the built-ins.
@Suite struct SiteTypeLogicTests {
    let fields: [JSONValue] = [
        [
            "id": "fridge", "type": "temperature", "label": "Fridge", "allowed_min": 0, "allowed_max": 5,
            "critical": true,
        ],
        ["id": "where", "type": "geopoint", "label": "Where"],
        ["id": "tag", "type": "barcode", "label": "Asset tag"],
        ["id": "took", "type": "duration", "label": "Clean took"],
        [
            "id": "warm", "type": "textarea", "label": "Why warm",
            "visible_when": ["field": "fridge", "op": "gt", "value": 5],
        ],
        ["id": "bad", "type": "text", "label": "Out of range", "visible_when": ["field": "fridge", "op": "failed"]],
        ["id": "located", "type": "text", "label": "Located", "visible_when": ["field": "where", "op": "answered"]],
        [
            "id": "known", "type": "text", "label": "Known tag",
            "visible_when": ["field": "tag", "op": "in", "value": ["AT-00001", "AT-00002"]],
        ],
        [
            "id": "long", "type": "text", "label": "Long clean",
            "required_when": ["field": "took", "op": "ge", "value": 3600],
        ],
    ]

    @Test(
        "temperature compares its reading and fails as a critical field would; geopoint is only answered; barcode and duration compare"
    )
    func siteTypes() throws {
        let form = try logic(fields)
        #expect(form.problems.isEmpty, "\(form.problems)")
        let state = form.evaluate(
            Answers(["fridge": 7.5, "where": ["lat": 1, "lon": 2, "accuracy_m": 5], "tag": "AT-00002", "took": 5400]))
        #expect(
            state.isVisible("warm") && state.isVisible("bad") && state.isVisible("located") && state.isVisible("known"))
        #expect(state.isRequired("long"))
        let cold = form.evaluate(Answers(["fridge": 3]))
        #expect(
            !cold.isVisible("warm") && !cold.isVisible("bad") && !cold.isVisible("located") && !cold.isVisible("known"))
    }

    @Test("comparing a geopoint's value is a lint problem: it supports only answered and unanswered")
    func geopointHasNoValue() throws {
        let problems = try logic([
            fields[1],
            ["id": "x", "type": "text", "label": "X", "visible_when": ["field": "where", "op": "eq", "value": 1]],
        ]).problems
        #expect(problems.map(\.code) == [.unsupportedOperator])
        #expect(problems[0].message.contains("supports only answered, unanswered"))
    }
}
