import FieldTypeConformance
import FieldTypes
import Foundation
import Models
import Testing

/// How field types take part in form logic, through the protocol.
@Suite("Field types in form logic")
struct LogicConformanceTests {
    @Test("a type whose logic declarations do not fit is reported check by check")
    func brokenLogicIsCaught() {
        let failures = FieldTypeConformance.check(
            BadLogicType(),
            samples: ConformanceSamples(
                goodDefinition: FieldDefinition(id: "x", type: "bad_logic", label: "Bad"),
                validAnswers: ["a"]))
        let checks = Set(failures.map(\.check))
        #expect(
            checks == [
                "every type supports answered and unanswered",
                "passed/failed are offered only by scored types",
                "comparison operators need a logicKind",
                "a calculable type is answered and compares a number, text or true/false",
                "a compared value is of the type's logicKind",
            ], "\(failures)")
    }

    @Test("what each built-in type compares: its declared kind and operators")
    func builtInKinds() {
        let kinds = Dictionary(uniqueKeysWithValues: registry.names.map { ($0, registry.type(named: $0)?.logicKind) })
        #expect(kinds["rating"] == .number && kinds["number"] == .number && kinds["pass_fail"] == .text)
        #expect(kinds["checkbox"] == .bool && kinds["date"] == .date && kinds["checkbox_group"] == .options)
        #expect(kinds["signature"] == .some(nil) && kinds["image"] == .some(nil) && kinds["table"] == .some(nil))
        let passFail = registry.type(named: "pass_fail")!
        #expect(passFail.logicOperators.contains(.passed) && !passFail.logicOperators.contains(.lt))
        #expect(registry.type(named: "text")!.logicOperators.isDisjoint(with: [.passed, .failed, .lt]))
        #expect(registry.type(named: "section")!.startsSection)
        #expect(
            registry.names.filter { registry.type(named: $0)!.holdsCalculation }
                == ["checkbox", "number", "pass_fail", "rating", "text", "textarea"])
    }

    @Test("a checkbox compares old clients' \"true\"/\"false\" strings as booleans; N/A is never compared")
    func checkboxReadings() {
        let checkbox = registry.type(named: "checkbox")!
        let field = FieldDefinition(id: "c", type: "checkbox", label: "Bins")
        #expect(checkbox.logicValue(of: "true", for: field) == .bool(true))
        #expect(checkbox.logicValue(of: false, for: field) == .bool(false))
        #expect(checkbox.logicValue(of: "N/A", for: field) == nil)
    }
}

/// A type whose form-logic declarations contradict each other.
private struct BadLogicType: FieldType {
    var name: String { "bad_logic" }
    var logicOperators: Set<LogicOperator> { [.passed, .lt] }
    var holdsCalculation: Bool { true }
    func logicValue(of answer: JSONValue, for field: FieldDefinition) -> LogicValue? { .number(1) }
    func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? { nil }
    func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError) -> JSONValue
    { .string(input) }
    func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String { "x" }
}
