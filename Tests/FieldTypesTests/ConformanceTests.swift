import FieldTypeConformance
import FieldTypes
import Foundation
import Models
import Testing

@Suite("Conformance kit")
struct ConformanceTests {
    @Test("every built-in type keeps every promise of the protocol", arguments: BuiltInSamples.all)
    func builtInTypeConforms(_ entry: TypeSamples) {
        let failures = FieldTypeConformance.check(entry.type, samples: entry.samples)
        #expect(failures.isEmpty, "\(failures.map(\.description).joined(separator: "\n"))")
    }

    @Test("the samples cover every built-in type")
    func samplesCoverBuiltIns() {
        let sampled = Set(BuiltInSamples.all.map(\.type.name))
        #expect(Set(registry.names).isSubset(of: sampled))
    }

    @Test("a type that breaks its promises is reported check by check, naming the sample")
    func brokenTypeIsCaught() {
        let samples = ConformanceSamples(
            goodDefinition: field("Bad Type", label: "Broken"),
            badDefinitions: [field("Bad Type", id: "b1")],
            validInputs: ["7"], invalidInputs: ["nope"],
            validAnswers: [7], invalidAnswers: ["seven"])
        let failures = FieldTypeConformance.check(BrokenType(), samples: samples)
        let checks = Set(failures.map(\.check))
        #expect(
            checks.isSuperset(of: [
                "name is lowercase letters, digits and underscores",
                "each bad definition has a problem",
                "a valid input parses",
                "an invalid answer is refused",
                "display is one non-empty line",
                "a valid answer scores within 0...1",
                "N/A scores as not applicable",
                "the type registers",
            ]))
        #expect(failures.contains { $0.check == "a valid input parses" && $0.sample == "7" })
        #expect(failures.contains { $0.check == "an invalid answer is refused" && $0.sample == "\"seven\"" })
    }

    @Test("a conformant third-party type passes and slots into the built-in registry")
    func thirdPartyType() throws {
        let temperature = FieldDefinition(id: "t1", type: "temperature_c", label: "Fridge temperature")
        let failures = FieldTypeConformance.check(
            TemperatureField(),
            samples: ConformanceSamples(
                goodDefinition: temperature,
                validInputs: ["4", "-18.5"], invalidInputs: ["cold", ""],
                validAnswers: [4, -18.5], invalidAnswers: ["4"]))
        #expect(failures.isEmpty, "\(failures)")

        var extended = FieldTypeRegistry.builtIn()
        try extended.register(TemperatureField())
        #expect(extended.resolve(temperature).name == "temperature_c")
        #expect(registry.resolve(temperature) is UnsupportedFieldType)
    }
}

/// A type that gets everything wrong, to prove the kit notices.
private struct BrokenType: FieldType {
    var name: String { "Bad Type" }
    var isScoreable: Bool { true }
    func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? { nil }
    func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError) -> JSONValue
    {
        throw AnswerInputError(input: input, message: "")
    }
    func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        "line one\nline two"
    }
    func score(_ answer: JSONValue?, for field: FieldDefinition) -> FieldScore { .scored(fraction: 2, passed: true) }
}

/// What another team's package would add: degrees Celsius as a JSON number.
private struct TemperatureField: FieldType {
    var name: String { "temperature_c" }
    func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        answer.numberValue == nil && !isBlank(answer) ? "a temperature must be a number of degrees Celsius" : nil
    }
    func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError) -> JSONValue
    {
        guard let value = Double(input.trimmingCharacters(in: .whitespaces)) else {
            throw AnswerInputError(
                input: input, message: "'\(input)' is not a temperature; type degrees Celsius, like 4 or -18.5")
        }
        return .double(value)
    }
    func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        answer?.numberValue.map { "\($0) C" } ?? "(no answer)"
    }
}
