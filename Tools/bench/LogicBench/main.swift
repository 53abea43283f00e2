// The form-logic benchmark: a template of 500 fields and 500 conditions,
// one answer changed, the state updated. Run by Tools/bench/logic.
import FieldTypes
import FormLogic
import Foundation
import Models
import SiteFieldTypes

/// A form of `count` number fields; every field after the first is shown
/// when the field it reads is above 0 (`reads(i)`), and the last field is
/// also required when the first is above 5: `count` conditions.
func form(count: Int, reads: (Int) -> Int) -> FormSchema {
    var fields: [FieldDefinition] = []
    for i in 0..<count {
        var extra: [String: JSONValue] = [:]
        if i > 0 { extra["visible_when"] = ["field": .integer(Int64(reads(i))), "op": "gt", "value": 0] }
        if i == count - 1 { extra["required_when"] = ["field": 0, "op": "gt", "value": 5] }
        fields.append(FieldDefinition(id: FieldID(String(i)), type: "number", label: "Field \(i)", extra: extra))
    }
    return FormSchema(fields: fields)
}

/// Median and 99th percentile of `runs` timings of `body`, in microseconds.
func measure(runs: Int, _ body: (Int) -> Void) -> (median: Double, p99: Double) {
    var times: [Double] = []
    times.reserveCapacity(runs)
    for run in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        body(run)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
    }
    times.sort()
    return (times[runs / 2], times[min(runs - 1, runs * 99 / 100)])
}

let registry = FieldTypeRegistry.builtIn().addingSiteFieldTypes()
let runs = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 2000
var generator = SystemRandomNumberGenerator()
let shapes: [(String, FormSchema, FieldID)] = [
    ("chain: field i reads field i-1; answer field 0 (all 500 re-evaluated)", form(count: 500) { $0 - 1 }, "0"),
    (
        "random: field i reads a random earlier field; answer field 0",
        form(count: 500) { Int.random(in: 0..<$0, using: &generator) }, "0"
    ),
    ("chain: answer the last field (nothing reads it)", form(count: 500) { $0 - 1 }, "499"),
]
print("form logic, 500 fields, 500 conditions, \(runs) runs each (microseconds)")
var worst = 0.0
for (name, schema, changed) in shapes {
    let compile = measure(runs: 50) { _ in _ = FormLogic(schema: schema, registry: registry) }
    let logic = FormLogic(schema: schema, registry: registry)
    precondition(logic.problems.isEmpty, "the benchmark form has logic problems: \(logic.problems)")
    var answers = Answers()
    for i in 0..<500 { answers[FieldID(String(i))] = 1 }
    let base = logic.evaluate(answers)
    let full = measure(runs: runs) { _ in _ = logic.evaluate(answers) }
    var sink = 0
    let update = measure(runs: runs) { run in
        var changedAnswers = answers
        changedAnswers[changed] = .integer(Int64(run % 2 == 0 ? 0 : 7))
        let next = logic.updating(base, answers: changedAnswers, changed: changed)
        sink &+= next.hiddenFields.count
    }
    worst = max(worst, update.median)
    print(
        String(
            format: "%@\n  compile %.0f, full evaluation %.0f (p99 %.0f), after one answer %.0f (p99 %.0f)",
            name, compile.median, full.median, full.p99, update.median, update.p99) + (sink < 0 ? "" : ""))
}
print(
    String(
        format: "target: one answer in under 1000 microseconds: %@ (worst median %.0f)", worst < 1000 ? "PASS" : "FAIL",
        worst))
