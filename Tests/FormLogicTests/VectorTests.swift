import FieldTypes
import FormLogic
import Models
import Scoring
import Testing
import TestSupport

/// The shared test vectors, through the evaluator and the scorer.
@Suite struct VectorTests {
    @Test("every shared vector: hidden, required, calculated and score", arguments: try LogicVector.all())
    func vector(_ vector: LogicVector) throws {
        let logic = FormLogic(schema: vector.schema, registry: registry)
        #expect(logic.problems.isEmpty, "\(logic.problems)")
        let state = logic.evaluate(vector.answers)
        #expect(Set(state.hiddenFields) == vector.hidden)
        let required = Set(vector.schema.fields.map(\.id).filter { state.isRequired($0) })
        #expect(required == vector.required)
        for (id, expected) in vector.calculated {
            #expect(state.value(id) == expected, "field \(id)")
        }
        let score = Scorer.score(
            schema: vector.schema, answers: state.answers, hidden: Set(state.hiddenFields), judge: registry.score)
        switch (score.ratio, vector.score) {
        case (nil, nil): break
        case (let got?, let want?): #expect(abs(got - want) < 1e-9, "score \(got), expected \(want)")
        default: Issue.record("score \(String(describing: score.ratio)), expected \(String(describing: vector.score))")
        }
    }

    @Test(
        "answering one field at a time with updating gives the same state as evaluating all at once",
        arguments: try LogicVector.all())
    func incremental(_ vector: LogicVector) throws {
        let logic = FormLogic(schema: vector.schema, registry: registry)
        var answers = Answers()
        var state = logic.evaluate(answers)
        for id in vector.answers.answeredIDs {
            answers[id] = vector.answers[id]
            state = logic.updating(state, answers: answers, changed: id)
        }
        #expect(state == logic.evaluate(vector.answers))
        // And back: clearing every answer returns to the empty form.
        for id in vector.answers.answeredIDs {
            answers[id] = nil
            state = logic.updating(state, answers: answers, changed: id)
        }
        #expect(state == logic.evaluate(Answers()))
    }
}
