import FieldTypes
import FormLogic
import Models
import Testing

/// Bad input never traps and never loses an answer.
@Suite struct BadInputTests {
    @Test("division by zero leaves the calculated field unanswered, and the other answers as they were")
    func divisionByZero() throws {
        let form = try logic([
            ["id": 1, "type": "number", "label": "Counted"], ["id": 2, "type": "number", "label": "Broken"],
            ["id": 3, "type": "number", "label": "Share", "calculate": ["div": [["field": 2], ["field": 1]]]],
        ])
        let state = form.evaluate(Answers(["1": 0, "2": 5]))
        #expect(state.value("3") == nil)
        #expect(state.answers == Answers(["1": 0, "2": 5]))
    }

    @Test("answers of the wrong kind read as unanswered: comparisons false, arithmetic null")
    func wrongKindAnswers() throws {
        let form = try logic([
            ["id": 1, "type": "number", "label": "Counted"],
            ["id": 2, "type": "text", "label": "Why", "visible_when": ["field": 1, "op": "gt", "value": 1]],
            ["id": 3, "type": "number", "label": "Twice", "calculate": ["mul": [["field": 1], 2]]],
        ])
        let state = form.evaluate(Answers(["1": "lots"]))
        #expect(!state.isVisible("2"))
        #expect(state.value("3") == nil)
        #expect(state.answers["1"] == "lots")
    }

    @Test("a malformed condition on a field keeps it visible and its answer kept, with a reason to show")
    func malformedAtRunTime() throws {
        let form = try logic([
            ["id": 1, "type": "text", "label": "Why", "visible_when": ["field": ["x"], "op": "answered"]]
        ])
        let state = form.evaluate(Answers(["1": "kept"]))
        #expect(state.isVisible("1"))
        #expect(state.answers["1"] == "kept")
        #expect(form.unsupportedReason("1")?.contains("malformed") == true)
    }

    @Test("a calculated value the field's type refuses leaves it unanswered (a rating above its scale)")
    func calculatedOutOfRange() throws {
        let form = try logic([["id": 1, "type": "rating", "label": "Stars", "max": 5, "calculate": 7]])
        #expect(form.evaluate(Answers()).value("1") == nil)
    }
}
