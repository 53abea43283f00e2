import FieldTypes
import Foundation
import Models
import SiteFieldTypes

// Every field type's answer parsers, as `jqc answer` and `jqc run` use them.
// Input: byte 0 picks a field definition (every built-in and site type, some
// in several variants), byte 1 the device's clock; the rest is the answer,
// read both as typed text (`registry.parse`) and as `--value-json` JSON
// (`JSONValue.parse`, then the type's `validate`).

let registry = FieldTypeRegistry.builtIn().addingSiteFieldTypes()

/// Field definitions as templates write them, decoded as the apps decode them.
let definitions: [FieldDefinition] = {
    let source = #"""
        [
          {"id": 1, "type": "text", "label": "Attendant on duty", "required": true},
          {"id": 2, "type": "email", "label": "Site contact email"},
          {"id": 3, "type": "textarea", "label": "Notes"},
          {"id": 4, "type": "number", "label": "Paper towel packs left"},
          {"id": 5, "type": "date", "label": "Last deep clean"},
          {"id": 6, "type": "checkbox", "label": "Bins emptied"},
          {"id": 7, "type": "checkbox_group", "label": "Restocked", "options": ["Paper towels", "Toilet paper", "Soap", "Sanitiser"]},
          {"id": 8, "type": "radio", "label": "Odour", "required": true, "options": ["Good", "Acceptable", "Poor"]},
          {"id": 9, "type": "select", "label": "Cleaning crew", "options": ["Day shift", "Night shift", "Contractor"]},
          {"id": 10, "type": "rating", "label": "Floors", "required": true, "max": 5, "weight": 2},
          {"id": 11, "type": "rating", "label": "Glass", "max": 10, "pass_min": 7},
          {"id": 12, "type": "rating", "label": "Mats", "max": 1},
          {"id": 13, "type": "pass_fail", "label": "Soap dispensers filled", "critical": true},
          {"id": 14, "type": "signature", "label": "Inspector signature", "required": true},
          {"id": 15, "type": "image", "label": "Evidence photos"},
          {"id": 16, "type": "table", "label": "Fixtures needing work", "columns": ["Fixture", "Problem", "Action"]},
          {"id": 17, "type": "table", "label": "Readings", "columns": ["Where"]},
          {"id": 18, "type": "section", "label": "Supplies"},
          {"id": 19, "type": "label", "label": "Photograph anything that needs maintenance."},
          {"id": 20, "type": "geopoint", "label": "Where", "max_accuracy_m": 25},
          {"id": 21, "type": "geopoint", "label": "Roughly where"},
          {"id": 22, "type": "barcode", "label": "Asset tag", "pattern": "AT-[0-9]{5}"},
          {"id": 23, "type": "barcode", "label": "Serial"},
          {"id": 24, "type": "temperature", "label": "Fridge", "unit": "C", "allowed_min": 0, "allowed_max": 5, "critical": true},
          {"id": 25, "type": "temperature", "label": "Freezer", "unit": "F", "allowed_min": -10, "allowed_max": 0},
          {"id": 26, "type": "duration", "label": "Deep clean", "min_seconds": 60, "max_seconds": 14400},
          {"id": 27, "type": "duration", "label": "Dwell time"},
          {"id": "seating", "type": "radio", "label": "Seating area", "options": ["OK", "Needs attention", "N/A"]},
          {"id": "q", "type": "checkbox_group", "label": "Tick all", "options": ["Mop", "Bucket & cloth", "Ça va", "N/A"]},
          {"id": "new", "type": "hologram", "label": "A type this jqc does not know"}
        ]
        """#
    guard let list = try? JSONValue.parse(source).arrayValue else { fatalError("the definitions are not JSON") }
    return list.enumerated().map { index, item in
        guard case .success(let field) = FieldDefinition.decode(item, index: index) else {
            fatalError("definition #\(index + 1) does not decode")
        }
        guard registry.check(FormSchema(fields: [field])).isEmpty else {
            fatalError("definition #\(index + 1) has problems")
        }
        return field
    }
}()

/// Device clocks a report may be typed under: now, the epoch, far back and far ahead.
let clocks: [Date] = [
    Date(timeIntervalSince1970: 1_767_225_600), Date(timeIntervalSince1970: 0),
    Date(timeIntervalSince1970: -2_208_988_800),
    Date(timeIntervalSince1970: 2_147_483_647), Date(timeIntervalSince1970: 4_102_444_800),
    Date(timeIntervalSince1970: 253_402_300_799),
]

let styles: [TerminalStyle] = [
    .plain, .rich, TerminalStyle(color: true, unicode: false), TerminalStyle(color: false, unicode: true),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnswers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzBytes(data, size)
    let field = definitions[Int(input.byte()) % definitions.count]
    let clock = clocks[Int(input.byte()) % clocks.count]
    let bytes = input.rest()
    let context = InputContext(
        deviceTime: clock, contentDigest: String(repeating: "5e", count: 32),
        reportLocalID: "6f1c2a44-0d1e-4c53-9a8e-3b0f1d2c4e5a")
    checkTyped(String(decoding: bytes, as: UTF8.self), field: field, context: context)
    if let json = try? JSONValue.parse(Data(bytes)) { checkJSON(json, field: field) }
    return 0
}

/// Typed text: parsed answers are valid and survive being stored; refusals are one line.
func checkTyped(_ text: String, field: FieldDefinition, context: InputContext) {
    let type = registry.resolve(field)
    let answer: JSONValue
    do {
        answer = try registry.parse(text, for: field, context: context)
    } catch {
        expect(isOneLine(error.message), "a refusal of typed input is one line, got \(shown(error.message))")
        return
    }
    expect(type.isAnswerable, "a \(field.type) field takes no typed answer, yet \(shown(text)) parsed")
    expect(
        type.validate(answer, for: field) == nil,
        "a parsed \(field.type) answer validates: \(shown(text)) -> \(answer.canonicalString()): \(type.validate(answer, for: field) ?? "")"
    )
    checkAnswer(answer, field: field)
    // The store keeps the canonical JSON; what it reads back must still be a valid, equally scored answer.
    guard let stored = try? JSONValue.parse(answer.canonicalData()) else {
        expect(false, "a parsed answer's canonical JSON parses: \(answer.canonicalString())")
        return
    }
    expect(
        type.validate(stored, for: field) == nil,
        "a stored \(field.type) answer still validates: \(answer.canonicalString())")
    expect(
        type.score(stored, for: field) == type.score(answer, for: field),
        "a stored \(field.type) answer scores the same: \(answer.canonicalString())")
    if field.type == "table" {
        // `jqc answer --add-row`: the new rows after the old ones still make a valid table.
        if let grown = try? TableField.appendingRows(answer, to: answer) {
            expect(
                type.validate(grown, for: field) == nil, "a table with rows added validates: \(grown.canonicalString())"
            )
        }
    }
}

/// `--value-json`: whatever the JSON, validation, display and scoring hold their promises.
func checkJSON(_ json: JSONValue, field: FieldDefinition) {
    let type = registry.resolve(field)
    if let reason = type.validate(json, for: field) {
        expect(isOneLine(reason), "a refusal of a \(field.type) answer is one line, got \(shown(reason))")
    }
    checkAnswer(json, field: field)
    let answers = Answers([field.id: json])
    let complete = registry.completionProblems(FormSchema(fields: [field]), answers: answers)
    for problem in complete {
        expect(isOneLine(problem.message), "a completion problem is one line, got \(shown(problem.message))")
    }
    for problem in registry.validateAnswers(FormSchema(fields: [field]), answers: answers) {
        expect(isOneLine(problem.message), "an answer problem is one line, got \(shown(problem.message))")
    }
    let copied = registry.prefill(from: answers, schema: FormSchema(fields: [field]))
    if let kept = copied[field.id] { expect(type.validate(kept, for: field) == nil, "a copied answer validates") }
}

/// Any answer, valid or not: one display line per style, a score within 0...1.
func checkAnswer(_ answer: JSONValue, field: FieldDefinition) {
    let type = registry.resolve(field)
    // The ASCII style replaces the product's own marks (stars, ticks, ellipses); text a person
    // or a template wrote is shown as written, so the promise holds for ASCII answers and fields.
    let asciiSource =
        answer.canonicalString().allSatisfy(\.isASCII) && field.json.canonicalString().allSatisfy(\.isASCII)
    for style in styles {
        let line = type.display(answer, for: field, style: style)
        expect(
            isOneLine(line), "a \(field.type) display is one line, got \(shown(line)) for \(answer.canonicalString())")
        if !style.color {
            expect(
                !line.unicodeScalars.contains("\u{1B}"), "a display without colour has no escape codes: \(shown(line))")
        }
        if !style.unicode, asciiSource {
            expect(line.unicodeScalars.allSatisfy(\.isASCII), "a display in an ASCII style is ASCII: \(shown(line))")
        }
    }
    switch type.score(answer, for: field) {
    case .scored(let fraction, _):
        expect(type.isScoreable, "only a scored type scores")
        expect((0...1).contains(fraction), "a score is within 0...1, got \(fraction) for \(answer.canonicalString())")
    case .unreadable(let why):
        expect(isOneLine(why), "an unreadable score says why on one line")
    case .notScoreable:
        expect(!type.isScoreable, "a scored type scores every answer")
    case .unanswered, .notApplicable:
        expect(type.isScoreable, "only a scored type says unanswered or N/A")
    }
}
