import FieldTypes
import Models
import Testing

@Suite("Scoring by field type")
struct ScoreTests {
    @Test("each answer contributes exactly what the seed's scorer and its extensions say", arguments: Cases.scoreCases)
    func score(_ definition: FieldDefinition, _ answer: JSONValue?, _ expected: FieldScore) {
        #expect(registry.score(definition, answer) == expected)
    }

    @Test("exactly rating, checkbox, radio and pass_fail are scored")
    func scoreableTypes() {
        #expect(
            registry.names.filter { registry.type(named: $0)?.isScoreable == true } == [
                "checkbox", "pass_fail", "radio", "rating",
            ])
    }
}

/// A three-step scale whose percents fall as the values rise.
let threeStep = FieldDefinition(
    id: "s", type: "rating", label: "Restroom", max: 3,
    extra: [
        "scale": [
            ["value": 1, "label": "Meets", "percent": 100, "deficient": false],
            ["value": 2, "label": "Needs attention", "percent": 75, "deficient": true],
            ["value": 3, "label": "Fails", "percent": 0, "deficient": true],
        ]
    ])

private enum Cases {
    static let scoreCases: [(FieldDefinition, JSONValue?, FieldScore)] = [
        (stars, 4, FieldScore.scored(fraction: 0.8, passed: true)),
        (stars, 3, .scored(fraction: 0.6, passed: true)),
        // Without a scale a rating is never a deficiency (contract 1.2), however low.
        (stars, 2, .scored(fraction: 0.4, passed: true)),
        (stars, 1, .scored(fraction: 0.2, passed: true)),
        (stars, 0, .unanswered),
        (stars, nil, .unanswered),
        (stars, "N/A", .notApplicable),
        (stars, "4", .scored(fraction: 0.8, passed: true)),
        (stars, 7, .unreadable("the rating 7 is outside 0 to 5")),
        (FieldDefinition(id: "r", type: "rating", max: 10), 6, .scored(fraction: 0.6, passed: true)),
        (FieldDefinition(id: "r", type: "rating", max: 10), 5, .scored(fraction: 0.5, passed: true)),
        // `pass_min` no longer decides a failure: a scale's deficient steps do.
        (FieldDefinition(id: "r", type: "rating", extra: ["pass_min": 4]), 3, .scored(fraction: 0.6, passed: true)),
        (threeStep, 1, .scored(fraction: 1, passed: true)),
        (threeStep, 2, .scored(fraction: 0.75, passed: false)),
        (threeStep, 3, .scored(fraction: 0, passed: false)),
        (threeStep, "N/A", .notApplicable),
        (threeStep, 0, .unanswered),
        (field("checkbox"), true, .scored(fraction: 1, passed: true)),
        (field("checkbox"), "true", .scored(fraction: 1, passed: true)),
        (field("checkbox"), false, .scored(fraction: 0, passed: false)),
        (field("checkbox"), "false", .scored(fraction: 0, passed: false)),
        (field("checkbox"), "yes", .scored(fraction: 0, passed: false)),
        (field("checkbox"), "", .unanswered),
        (field("checkbox"), nil, .unanswered),
        (field("checkbox"), "N/A", .notApplicable),
        (field("checkbox"), 1, .unreadable("a checkbox answer must be true or false, not a number: 1")),
        (floor, "Good", .scored(fraction: 1, passed: true)),
        (floor, "Poor", .scored(fraction: 0, passed: false)),
        (floor, " OK ", .scored(fraction: 1, passed: true)),
        (floor, "", .unanswered),
        (floor, "N/A", .notApplicable),
        (field("pass_fail"), "pass", .scored(fraction: 1, passed: true)),
        (field("pass_fail"), "fail", .scored(fraction: 0, passed: false)),
        (field("pass_fail"), "Compliant", .scored(fraction: 1, passed: true)),
        (field("pass_fail"), "bad", .scored(fraction: 0, passed: false)),
        (field("pass_fail"), "", .unanswered),
        (field("pass_fail"), "n/a", .notApplicable),
        (field("pass_fail"), true, .unreadable("a pass_fail answer must be a string, not a boolean: true")),
        (shift, "Morning", .notScoreable),
        (field("text"), "pass", .notScoreable),
        (field("section"), nil, .notScoreable),
        (field("geopoint"), 5, .notScoreable),
    ]
}
