import Testing
import Models
import FieldTypes
import Scoring

/// Scores `answersJSON` against a schema written as JSON text, with the
/// built-in field types as the judge: the exact path the apps and the server take.
func scoreJSON(_ schemaJSON: String, _ answersJSON: String) throws -> ScoreReport {
    let registry = FieldTypeRegistry.builtIn()
    let schema = try FormSchema.decode(JSONValue.parse(schemaJSON)).get()
    let answers = try #require(Answers(json: JSONValue.parse(answersJSON)))
    return Scorer.score(schema: schema, answers: answers, judge: registry.score)
}

/// Every scoreable type once, with integer ids as the server sends them.
let seedSchema = #"""
    {"fields": [
      {"id": 1, "type": "rating", "label": "Floors"},
      {"id": 2, "type": "rating", "label": "Sinks"},
      {"id": 3, "type": "checkbox", "label": "Bins emptied"},
      {"id": 4, "type": "checkbox", "label": "Lights on"},
      {"id": 5, "type": "radio", "label": "Odour", "options": ["Good", "Acceptable", "Poor", "Yes", "No", "OK", "Compliant", "pass"]},
      {"id": 6, "type": "radio", "label": "Seating", "options": ["Good", "Acceptable", "Poor", "Yes", "No", "OK", "Compliant", "pass"]},
      {"id": 7, "type": "pass_fail", "label": "Soap"},
      {"id": 8, "type": "pass_fail", "label": "Mirrors"},
      {"id": 9, "type": "select", "label": "Crew", "options": ["Yes", "No"]},
      {"id": 10, "type": "text", "label": "Notes"}
    ]}
    """#

@Suite("Scoring matches the seed's rules exactly (000 section 17)")
struct SeedScoringTests {
    @Test(
        "each rule of the seed, computed by hand",
        arguments: [
            // rating: value / 5; 0 is unanswered and excluded
            (#"{"1": 4}"#, 0.8),
            (#"{"1": 0}"#, nil),
            (#"{"1": 0, "2": 3}"#, 0.6),
            (#"{"1": 5, "2": 1}"#, 0.6),
            // checkbox: true (or the old clients' "true") passes, false fails
            (#"{"3": true, "4": false}"#, 0.5),
            (#"{"3": "true"}"#, 1.0),
            (#"{"3": "false"}"#, 0.0),
            // radio: pass keywords, case-insensitive; any other option fails
            (#"{"5": "Yes", "6": "No"}"#, 0.5),
            (#"{"5": "Compliant"}"#, 1.0),
            (#"{"5": "Acceptable", "6": "Poor"}"#, 0.5),
            (#"{"5": "OK", "6": "Good"}"#, 1.0),
            // pass_fail: the same keywords; empty is unanswered
            (#"{"7": "pass", "8": "fail"}"#, 0.5),
            (#"{"7": "pass", "8": ""}"#, 1.0),
            (#"{"7": "", "8": ""}"#, nil),
            (#"{"7": "PASS"}"#, 1.0),
            // select and text are not scoreable, whatever they say
            (#"{"9": "Yes", "10": "pass"}"#, nil),
            // nothing answered
            (#"{}"#, nil),
            // a mix: 3/5 + 1 + 1 + 0 over four answered = 0.65
            (#"{"1": 3, "3": true, "5": "ok", "7": "fail", "9": "No"}"#, 0.65),
        ] as [(String, Double?)])
    func seedRules(answers: String, expected: Double?) throws {
        let report = try scoreJSON(seedSchema, answers)
        if let expected, let ratio = report.ratio {
            #expect(abs(ratio - expected) < 1e-9, "answers \(answers): got \(ratio), want \(expected)")
        } else {
            #expect(report.ratio == expected, "answers \(answers)")
        }
    }

    @Test(
        "every pass keyword of the seed passes, in any case",
        arguments: ["pass", "yes", "ok", "good", "acceptable", "compliant"])
    func passKeywords(keyword: String) throws {
        for written in [keyword, keyword.uppercased(), keyword.capitalized] {
            let report = try scoreJSON(#"{"fields": [{"id": 1, "type": "pass_fail"}]}"#, #"{"1": "\#(written)"}"#)
            #expect(report.ratio == 1, "'\(written)' should pass")
        }
    }

    @Test("the integer-id pitfall: integer ids in the schema find string-keyed answers, and nothing else")
    func integerIDs() throws {
        let schema = #"{"fields": [{"id": 5, "type": "rating"}, {"id": 6, "type": "pass_fail"}]}"#
        #expect(try scoreJSON(schema, #"{"5": 4, "6": "pass"}"#).ratio == 0.9)
        // What the seed's Optional.map bug produced: keys that match no field, so nothing is scored.
        #expect(try scoreJSON(schema, #"{"Optional(5)": 4, "Optional(6)": "pass"}"#).ratio == nil)
        // String ids behave the same as integer ids.
        let stringIDs = #"{"fields": [{"id": "5", "type": "rating"}, {"id": "6", "type": "pass_fail"}]}"#
        #expect(try scoreJSON(stringIDs, #"{"5": 4, "6": "pass"}"#).ratio == 0.9)
    }
}

@Suite("Scoring beyond the seed: scales, weights, N/A, critical fields, breakdown")
struct BeyondSeedScoringTests {
    @Test("a rating is scored on its own scale: 7 of 10 is 0.7")
    func ratingScale() throws {
        #expect(try scoreJSON(#"{"fields": [{"id": 1, "type": "rating", "max": 10}]}"#, #"{"1": 7}"#).ratio == 0.7)
    }

    @Test("N/A is left out for every scoreable type", arguments: ["rating", "checkbox", "pass_fail"])
    func notApplicable(type: String) throws {
        let schema = #"{"fields": [{"id": 1, "type": "\#(type)"}, {"id": 2, "type": "pass_fail"}]}"#
        let report = try scoreJSON(schema, #"{"1": "N/A", "2": "fail"}"#)
        #expect(report.ratio == 0)
        #expect(report.fields[0].outcome == .notApplicable)
    }

    @Test("N/A on a radio is left out too")
    func notApplicableRadio() throws {
        let schema =
            #"{"fields": [{"id": 1, "type": "radio", "options": ["Yes", "No"]}, {"id": 2, "type": "pass_fail"}]}"#
        #expect(try scoreJSON(schema, #"{"1": "N/A", "2": "pass"}"#).ratio == 1)
    }

    @Test("weights: a weight-2 rating of 5 and a weight-1 fail give 2/3")
    func weights() throws {
        let schema = #"{"fields": [{"id": 1, "type": "rating", "weight": 2}, {"id": 2, "type": "pass_fail"}]}"#
        let report = try scoreJSON(schema, #"{"1": 5, "2": "fail"}"#)
        #expect(abs((report.ratio ?? -1) - 2.0 / 3.0) < 1e-9)
    }

    @Test("a failed critical pass/fail fails the inspection although the ratio is high")
    func criticalPassFail() throws {
        let schema =
            #"{"fields": [{"id": 1, "type": "pass_fail", "critical": true}, {"id": 2, "type": "rating"}, {"id": 3, "type": "rating"}]}"#
        let report = try scoreJSON(schema, #"{"1": "fail", "2": 5, "3": 5}"#)
        #expect(abs((report.ratio ?? -1) - 2.0 / 3.0) < 1e-9)
        #expect(report.criticalFailures == ["1"])
        #expect(report.verdict == .failedCritical)
    }

    @Test(
        "a critical rating fails only on a deficient step of its scale; without a scale it never fails",
        arguments: [(nil, 1, false), (nil, 2, false), (2, 1, false), (2, 2, true), (2, 3, true)])
    func criticalRating(deficientFrom: Int?, value: Int, fails: Bool) throws {
        let scale =
            deficientFrom.map { from in
                #", "max": 3, "scale": ["#
                    + (1...3).map {
                        #"{"value": \#($0), "label": "Step \#($0) words", "percent": \#(100 - 40 * ($0 - 1)), "deficient": \#($0 >= from)}"#
                    }.joined(separator: ", ") + "]"
            } ?? ""
        let report = try scoreJSON(
            #"{"fields": [{"id": 1, "type": "rating", "critical": true\#(scale)}]}"#, #"{"1": \#(value)}"#)
        #expect(report.failedCritical == fails)
        #expect(report.deficiencies == (fails ? ["1"] : []))
    }

    @Test("the breakdown lists every field in form order with what it earned")
    func breakdown() throws {
        let report = try scoreJSON(seedSchema, #"{"1": 4, "3": true, "7": "N/A", "10": "fine"}"#)
        #expect(report.fields.count == 10)
        #expect(report.fields[0].fieldID == "1" && report.fields[0].earned == 0.8 && report.fields[0].possible == 1)
        #expect(report.fields[2].earned == 1)
        #expect(report.fields[6].outcome == .notApplicable)
        #expect(report.fields[9].outcome == .notScoreable)
        #expect(report.fields[1].outcome == .unanswered)
        #expect(abs((report.ratio ?? -1) - 0.9) < 1e-9)
    }
}
