import Testing
import Models
import Scoring

/// A judge that reads the outcome a test wants straight from the answer:
/// "p" pass, "f" fail, "n/a", a number as a fraction. It isolates the adding-up
/// rules from any field type.
func tableJudge(_ field: FieldDefinition, _ answer: JSONValue?) -> FieldScore {
    if field.type == "text" { return .notScoreable }
    switch answer {
    case nil: return .unanswered
    case .string("p")?: return .scored(fraction: 1, passed: true)
    case .string("f")?: return .scored(fraction: 0, passed: false)
    case .string("N/A")?: return .notApplicable
    case .double(let d)?: return .scored(fraction: d, passed: d >= 0.6)
    case let other?: return .unreadable("cannot read \(other.kindDescription)")
    }
}

func schema(_ fields: [FieldDefinition]) -> FormSchema { FormSchema(fields: fields) }

@Suite("Adding up a score")
struct ScorerTests {
    @Test("with no weights the ratio is earned over answered, exactly the seed's rule")
    func seedRatio() {
        let s = schema((1...4).map { FieldDefinition(id: FieldID("\($0)"), type: "x") })
        let report = Scorer.score(schema: s, answers: Answers(["1": "p", "2": "f", "3": 0.5]), judge: tableJudge)
        #expect(report.earned == 1.5)
        #expect(report.possible == 3)
        #expect(report.ratio == 0.5)
        #expect(report.verdict == .scored)
        #expect(report.percentText == "50%")
    }

    @Test("nothing scoreable answered gives no score at all, not zero")
    func nothingAnswered() {
        let s = schema([FieldDefinition(id: "1", type: "x"), FieldDefinition(id: "2", type: "text")])
        let report = Scorer.score(schema: s, answers: Answers(["2": "notes"]), judge: tableJudge)
        #expect(report.ratio == nil)
        #expect(report.verdict == .notScored)
        #expect(report.percentText == "not scored")
    }

    @Test("N/A, unanswered, unreadable and non-scoreable fields are left out of the ratio but shown")
    func exclusions() {
        let s = schema([
            FieldDefinition(id: "a", type: "x"), FieldDefinition(id: "b", type: "x"),
            FieldDefinition(id: "c", type: "x"), FieldDefinition(id: "d", type: "text"),
            FieldDefinition(id: "e", type: "x"),
        ])
        let report = Scorer.score(
            schema: s, answers: Answers(["a": "p", "b": "N/A", "c": [1], "d": "hello"]), judge: tableJudge)
        #expect(report.ratio == 1)
        #expect(report.fields.map(\.fieldID) == ["a", "b", "c", "d", "e"])
        #expect(report.fields.map(\.counts) == [true, false, false, false, false])
        #expect(report.fields[1].outcome == .notApplicable)
        #expect(report.fields[2].outcome == .unreadable("cannot read an array"))
        #expect(report.fields[4].outcome == .unanswered)
    }

    @Test("weights scale each field's part: a weight-3 pass and a weight-1 fail give 75%")
    func weights() {
        let s = schema([FieldDefinition(id: "1", type: "x", weight: 3), FieldDefinition(id: "2", type: "x")])
        let report = Scorer.score(schema: s, answers: Answers(["1": "p", "2": "f"]), judge: tableJudge)
        #expect(report.ratio == 0.75)
        #expect(report.fields[0].earned == 3 && report.fields[0].possible == 3)
        #expect(report.fields[1].earned == 0 && report.fields[1].possible == 1)
    }

    @Test("a weight of zero shows the field but keeps it out of the ratio")
    func zeroWeight() {
        let s = schema([FieldDefinition(id: "1", type: "x", weight: 0), FieldDefinition(id: "2", type: "x")])
        let report = Scorer.score(schema: s, answers: Answers(["1": "f", "2": "p"]), judge: tableJudge)
        #expect(report.ratio == 1)
        let only = schema([FieldDefinition(id: "1", type: "x", weight: 0)])
        #expect(Scorer.score(schema: only, answers: Answers(["1": "p"]), judge: tableJudge).ratio == nil)
    }

    @Test("a failed critical field fails the inspection whatever the ratio")
    func critical() {
        let s = schema(
            [FieldDefinition(id: "1", type: "x", critical: true)]
                + (2...10).map { FieldDefinition(id: FieldID("\($0)"), type: "x") })
        var answers = Answers(["1": "f"])
        for i in 2...10 { answers[FieldID("\(i)")] = "p" }
        let report = Scorer.score(schema: s, answers: answers, judge: tableJudge)
        #expect(report.ratio == 0.9)
        #expect(report.criticalFailures == ["1"])
        #expect(report.failedCritical)
        #expect(report.verdict == .failedCritical)
    }

    @Test(
        "a critical field that passes, is N/A or is unanswered does not fail the inspection",
        arguments: [JSONValue.string("p"), .string("N/A"), nil])
    func criticalNotFailed(answer: JSONValue?) {
        let s = schema([FieldDefinition(id: "1", type: "x", critical: true), FieldDefinition(id: "2", type: "x")])
        var answers = Answers(["2": "f"])
        answers["1"] = answer
        let report = Scorer.score(schema: s, answers: answers, judge: tableJudge)
        #expect(report.criticalFailures.isEmpty)
    }

    @Test("fractions outside 0...1 from a misbehaving type are held to the range")
    func clamp() {
        let s = schema([FieldDefinition(id: "1", type: "x"), FieldDefinition(id: "2", type: "x")])
        let report = Scorer.score(schema: s, answers: Answers(["1": 7.0, "2": -2.0]), judge: tableJudge)
        #expect(report.earned == 1)
        #expect(report.ratio == 0.5)
    }
}
