@testable import ServerCore
import Models
import Testing
import TestSupport

/// The shared form-logic vectors through the server's judge: the report a
/// device would send for each (visible answers, calculations applied) gets
/// the vector's score, and is refused exactly when a visible required field
/// is unanswered, naming it.
@Suite("The server judges form logic as the device does")
struct FormLogicJudgeTests {
    @Test("each vector: the server's score and its missing required fields", arguments: try LogicVector.all())
    func vector(_ vector: LogicVector) throws {
        let judge = AnswerJudge()
        var sent = Answers()
        for field in vector.schema.fields where !vector.hidden.contains(field.id) {
            let calculated = vector.calculated[field.id]
            if let calculated { sent[field.id] = calculated } else { sent[field.id] = vector.answers[field.id] }
        }
        let score = judge.grade(Template(id: "vector", name: "vector", schema: vector.schema), answers: sent).score
        switch (score, vector.score) {
        case (nil, nil): break
        case (let got?, let want?): #expect(abs(got - want) < 1e-9, "score \(got), expected \(want)")
        default: Issue.record("score \(String(describing: score)), expected \(String(describing: vector.score))")
        }
        let problems = judge.problems(schema: vector.schema, answers: sent)
        let missing = vector.schema.fields.filter { vector.required.contains($0.id) && sent[$0.id] == nil }
        #expect(problems.count == missing.count, "\(problems)")
        for field in missing {
            #expect(problems.contains { $0.contains("field '\(field.id)'") }, "field \(field.id) missing: \(problems)")
        }
    }

    @Test(
        "each vector with every hidden field answered anyway: refused, naming each hidden field",
        arguments: try LogicVector.all())
    func hiddenAnswered(_ vector: LogicVector) throws {
        let judge = AnswerJudge()
        var sent = vector.answers
        for (id, value) in vector.calculated { sent[id] = value }
        let answerableHidden = vector.schema.fields.filter { vector.hidden.contains($0.id) && $0.type != "section" }
        for field in answerableHidden where sent[field.id] == nil {
            sent[field.id] = field.type == "rating" ? 3 : (field.type == "checkbox" ? true : "x")
        }
        let problems = judge.problems(schema: vector.schema, answers: sent)
        for field in answerableHidden {
            #expect(
                problems.contains { $0.contains("field '\(field.id)'") && $0.contains("hidden by condition") },
                "\(field.id): \(problems)")
        }
    }
}

/// The server's demo world carries the same logic template as `Tools/demo`.
@Suite("The demo world's form-logic template")
struct DemoLogicWorldTests {
    @Test("jqc-server --demo seeds washroom-logic exactly as Tools/demo/templates.json has it")
    func sameTemplate() throws {
        let seeded = try #require(try DemoWorld.decodeTemplates().first { $0.id == "washroom-logic" })
        let objects = try #require(DemoFiles.json("templates.json")["templates"]?.arrayValue)
        let shipped = try Template.decode(try #require(objects.first { $0["id"] == "washroom-logic" })).get()
        #expect(seeded.schema == shipped.schema)
        #expect(seeded.name == shipped.name && seeded.version == shipped.version)
    }
}
