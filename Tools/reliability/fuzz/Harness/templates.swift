import FieldTypes
import FormLogic
import Foundation
import Models
import SiteFieldTypes

// The template schema decoder, as `jqc templates import` and `jqc templates
// lint` use it: the bytes are a templates file (or one template object);
// each template goes through `Template.decode`, its decodable fields through
// `FieldDefinition.decode` one by one, and what decodes through the
// registry's `check` and `lint` (the site types included) and the form
// logic: compiled, linted, evaluated on no answers and on answers made from
// the template's own values, and updated one answer at a time.

let registry = FieldTypeRegistry.builtIn().addingSiteFieldTypes()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTemplates(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let document = try? JSONValue.parse(Data(bytes: data, count: size)) else { return 0 }
    for item in document["templates"]?.arrayValue ?? [document] {
        checkTemplate(item)
    }
    return 0
}

func checkTemplate(_ item: JSONValue) {
    // The lint path: every field that decodes is linted, even when the template does not.
    let items = item["form_schema"]?["fields"]?.arrayValue ?? []
    let decodable = items.enumerated().compactMap { try? FieldDefinition.decode($0.element, index: $0.offset).get() }
    checkProblems(
        registry.lint(FormSchema(fields: decodable)), fields: decodable.count, what: "lint of the decodable fields")

    switch Template.decode(item) {
    case .failure(let errors):
        expect(!errors.problems.isEmpty, "a template that does not decode names at least one problem")
        for problem in errors.problems {
            expect(!problem.message.isEmpty, "every decoding problem says something")
            if let index = problem.fieldIndex {
                expect(index >= 0 && index < items.count, "a decoding problem points at a field of the list")
            }
        }
    case .success(let template):
        let fields = template.schema.fields
        expect(fields.count == items.count, "a decoded schema keeps every field")
        expect(Set(fields.map(\.id)).count == fields.count, "a decoded schema has no repeated field id")
        let checked = registry.check(template.schema)
        let linted = registry.lint(template.schema)
        checkProblems(checked, fields: fields.count, what: "check")
        checkProblems(linted, fields: fields.count, what: "lint")
        for problem in checked {
            expect(linted.contains(problem), "lint lists everything check lists (missing \(shown(problem.message)))")
        }
        for (index, field) in fields.enumerated() {
            if let type = registry.type(named: field.type) {
                for problem in type.checkDefinition(field) {
                    expect(
                        isOneLine(problem.message), "a definition problem is one line, got \(shown(problem.message))")
                    expect(problem.fieldID == field.id, "a definition problem names its field")
                }
            }
            expect(registry.resolve(field).name == field.type, "field #\(index + 1) resolves to a type of its own name")
        }
        let required = fields.filter { $0.required && registry.resolve($0).isAnswerable }
        expect(
            registry.completionProblems(template.schema, answers: Answers()).count == required.count,
            "an empty report lacks exactly the required answerable fields")
        checkRoundTrip(template)
        checkLogic(template, items: items)
    }
}

/// Form logic on any template: lint problems name a field of the form in one
/// line; evaluating never traps; updating after each answer gives the same
/// state as evaluating all answers at once.
func checkLogic(_ template: Template, items: [JSONValue]) {
    let logic = FormLogic(schema: template.schema, registry: registry)
    let ids = Set(template.schema.fields.map(\.id))
    for problem in logic.problems + logic.warnings {
        expect(ids.contains(problem.fieldID), "a logic problem names a field of the form")
        expect(
            isOneLine(problem.message) && !problem.message.isEmpty,
            "a logic problem is one line, got \(shown(problem.message))")
    }
    var answers = Answers()
    var state = logic.evaluate(answers)
    // Answers taken from the template's own values: each field's "value" keys and options.
    var values: [JSONValue] = [1, 0, 2.5, "pass", "fail", true, "N/A", "2026-01-31"]
    for item in items { if let value = item["value"] { values.append(value) } }
    for (index, field) in template.schema.fields.prefix(64).enumerated() {
        answers[field.id] = values[index % values.count]
        state = logic.updating(state, answers: answers, changed: field.id)
    }
    expect(state == logic.evaluate(answers), "updating after each answer equals evaluating at once")
    _ = logic.completionProblems(answers)
    _ = logic.submissionProblems(state.visibleAnswers)
    for field in template.schema.fields.prefix(8) { _ = logic.explain(field.id, answers: answers) }
}

/// Problems carry a field position inside the schema, and a message.
func checkProblems(_ problems: [SchemaProblem], fields: Int, what: String) {
    for problem in problems {
        expect(!problem.message.isEmpty, "every \(what) problem says something")
        if let index = problem.fieldIndex {
            expect(index >= 0 && index < fields, "a \(what) problem points at a field of the schema")
        }
    }
}

/// A decoded template is stored as its canonical JSON and read back from it:
/// it must decode again to the same template, field by field.
func checkRoundTrip(_ template: Template) {
    guard let stored = try? JSONValue.parse(template.json.canonicalData()) else {
        expect(false, "a template's canonical JSON parses")
        return
    }
    guard case .success(let again) = Template.decode(stored) else {
        expect(false, "a stored template decodes again: \(template.json.canonicalString())")
        return
    }
    expect(
        again.id == template.id && again.name == template.name && again.version == template.version,
        "a stored template keeps its id, name and version")
    expect(again.schema.fields.count == template.schema.fields.count, "a stored template keeps its fields")
    for (a, b) in zip(template.schema.fields, again.schema.fields) {
        expect(
            a.id == b.id && a.type == b.type && a.label == b.label && a.required == b.required
                && a.options == b.options && a.max == b.max && a.columns == b.columns && a.weight == b.weight
                && a.critical == b.critical && a.col == b.col && a.row == b.row && a.colSpan == b.colSpan
                && a.rowSpan == b.rowSpan, "a stored field reads back the same: \(a.json.canonicalString())")
    }
}
