import FieldTypes
import Models
import Testing

/// Rating scales (contract 1.2): a step is typed by its value or its label,
/// shown with its label and percent, and a template's scale is checked.
@Suite("Rating scales")
struct RatingScaleTests {
    @Test("a step is typed by its value or its whole label, in any case and spacing")
    func typedByLabel() throws {
        #expect(try typed("2", threeStep).get() == 2)
        #expect(try typed("needs attention", threeStep).get() == 2)
        #expect(try typed("  FAILS ", threeStep).get() == 3)
        #expect(try typed("n/a", threeStep).get() == "N/A")
    }

    @Test("a word that names no step is refused, listing the steps")
    func unknownLabel() {
        let message = refusal("needs", threeStep)
        #expect(message?.contains("'needs' is not a step of this scale") == true)
        #expect(message?.contains("1 Meets, 2 Needs attention, 3 Fails") == true)
        #expect(refusal("4", threeStep) != nil)
    }

    @Test("an answer is shown with its step's label, value and percent")
    func display() {
        #expect(registry.display(threeStep, 2, style: .plain) == "Needs attention 2/3, 75%")
        #expect(registry.display(stars, 2, style: .plain) == "[**---] 2/5")
    }

    @Test(
        "each problem of a scale is named with its fix",
        arguments: [
            (["scale": [["value": 1, "label": "Only", "percent": 100]], "max": 1], "a scale needs at least two"),
            (
                [
                    "scale": [
                        ["value": 1, "label": "A b", "percent": 100], ["value": 3, "label": "C d", "percent": 0],
                    ]
                ],
                "scale step 2 has 'value' 3; the values must be 1, 2, 3... in order"
            ),
            (
                [
                    "scale": [
                        ["value": 1, "label": "A b", "percent": 100], ["value": 2, "label": "C d", "percent": 0],
                    ]
                ],
                "'max' must be 2, the number of steps of its 'scale'; add \"max\": 2"
            ),
            (
                [
                    "max": 2,
                    "scale": [
                        ["value": 1, "label": "A b", "percent": 120], ["value": 2, "label": "C d", "percent": 0],
                    ],
                ], "scale step 1 needs a 'percent' from 0 to 100"
            ),
            (
                [
                    "max": 2,
                    "scale": [
                        ["value": 1, "label": "Clean", "percent": 100], ["value": 2, "label": "clean", "percent": 0],
                    ],
                ], "scale step 2's label 'clean' is used twice"
            ),
            (
                [
                    "max": 2,
                    "scale": [
                        ["value": 1, "label": "3", "percent": 100], ["value": 2, "label": "Dirty", "percent": 0],
                    ],
                ], "scale step 1's label '3' reads as a value"
            ),
            (
                [
                    "max": 2,
                    "scale": [
                        ["value": 1, "label": "Clean", "percent": 100], ["value": 2, "label": "NA", "percent": 0],
                    ],
                ], "scale step 2's label 'NA' reads as a value"
            ),
            (
                [
                    "max": 2,
                    "scale": [
                        ["value": 1, "label": "Clean", "percent": 100, "deficient": "no"],
                        ["value": 2, "label": "Dirty", "percent": 0],
                    ],
                ], "scale step 1's 'deficient' must be true or false"
            ),
            (["max": 2, "scale": "steps"], "'scale' must be a list of steps"),
        ] as [([String: JSONValue], String)])
    func problems(_ keys: [String: JSONValue], _ expected: String) {
        var extra = keys
        let max = extra.removeValue(forKey: "max")?.integerValue.map { Int($0) }
        let definition = FieldDefinition(id: "s", type: "rating", label: "Scaled", max: max, extra: extra)
        let problems = registry.check(FormSchema(fields: [definition])).map(\.description)
        #expect(problems.contains { $0.contains(expected) }, "\(problems)")
    }

    @Test("a good scale has no problems, and a broken one leaves the rating scored value/max")
    func goodScale() {
        #expect(registry.check(FormSchema(fields: [threeStep])) == [])
        let broken = FieldDefinition(
            id: "s", type: "rating", label: "Broken", max: 3, extra: ["scale": [["value": 1, "label": "One"]]])
        #expect(registry.score(broken, 3) == .scored(fraction: 1, passed: true))
    }
}
