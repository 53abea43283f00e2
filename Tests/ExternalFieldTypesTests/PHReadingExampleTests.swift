import ExternalFieldTypes
import FieldTypeConformance
import FieldTypes
import Foundation
import Models
import Testing
import TestSupport

/// The Python example, `jqc-field-ph_reading`, through the adapter the programs use.
@Suite("The pH reading example plugin")
struct PHReadingExampleTests {
    let warnings = Warnings()
    var types: FieldTypeRegistry {
        registry(with: FieldTypePlugins.examplesDirectory.path, settings: warnings.settings())
    }

    @Test("typed readings are read as numbers, with the plugin's own words for a bad one")
    func parsing() {
        let types = types
        #expect(typed("pH 6,8", cleanerPH, in: types) == .success(6.8))
        #expect(typed("7.25", cleanerPH, in: types) == .success(7.25))
        #expect(typed("n/a", cleanerPH, in: types) == .success("N/A"))
        guard case .failure(let refusal) = typed("15", cleanerPH, in: types) else {
            Issue.record("15 was accepted")
            return
        }
        #expect(refusal.message == "pH 15 is outside 0 to 14; check the meter and type the reading again")
        #expect(warnings.all.isEmpty)
    }

    @Test("a reading is shown on one line with its allowed range, and an out-of-range one says so")
    func display() {
        let types = types
        #expect(types.display(cleanerPH, 7.2, style: .plain) == "pH 7.2 (allowed 6.5 to 8.5)")
        #expect(types.display(cleanerPH, 9.4, style: .plain) == "pH 9.4 (allowed 6.5 to 8.5, OUT OF RANGE)")
        #expect(types.display(cleanerPH, nil, style: .plain) == "(no answer)")
        #expect(types.display(cleanerPH, "seven", style: .plain).contains("unreadable answer"))
    }

    @Test("it is scored pass or fail against the field's own limits, and a critical failure fails the field")
    func scoring() {
        let types = types
        #expect(types.score(cleanerPH, 7.2) == .scored(fraction: 1, passed: true))
        #expect(types.score(cleanerPH, 9.4) == .scored(fraction: 0, passed: false))
        #expect(types.score(cleanerPH, "N/A") == .notApplicable)
        #expect(types.score(cleanerPH, nil) == .unanswered)
        let type = types.resolve(cleanerPH)
        #expect(type.isScoreable && !type.copiesOnReinspection)
    }

    @Test("conditions compare the reading as a number")
    func comparing() {
        let type = types.resolve(cleanerPH)
        #expect(type.logicKind == .number)
        #expect(type.logicOperators.isSuperset(of: [.lt, .gt, .passed, .failed]))
        #expect(type.logicValue(of: 9.4, for: cleanerPH) == .number(9.4))
        #expect(type.logicValue(of: "N/A", for: cleanerPH) == nil)
    }

    @Test("wrong limits in a template and wrong answers from elsewhere are refused in the plugin's words")
    func checking() {
        let types = types
        let swapped = FieldDefinition(id: "3", type: "ph_reading", extra: ["allowed_min": 9, "allowed_max": 7])
        let problems = types.check(FormSchema(fields: [swapped]))
        #expect(problems.map(\.message) == ["'allowed_min' 9 is above 'allowed_max' 7; swap them"])
        let refused = types.validateAnswers(FormSchema(fields: [cleanerPH]), answers: Answers(["2": "7.2"]))
        #expect(
            refused.map(\.message) == [
                "field '2' (Floor cleaner pH): a pH reading is a number from 0 to 14, such as 7.2"
            ])
        #expect(types.completionProblems(FormSchema(fields: [cleanerPH]), answers: Answers(["2": 7.2])).isEmpty)
    }

    @Test("it passes the conformance kit the compiled-in types pass")
    func conformance() {
        let outcome = ExternalFieldTypeCheck.run(path: FieldTypePlugins.phReading, settings: warnings.settings())
        #expect(outcome.name == "ph_reading")
        #expect(outcome.failures.isEmpty, "\(outcome.failures.map(\.description))")
    }
}
