import Foundation
import FieldTypeConformance
import FieldTypes
import Models

/// `jqc field-types check PATH`: the conformance kit the compiled-in types
/// pass, run against an executable through the same adapter the programs use.
///
/// The kit needs real examples, so a plugin answers one more method,
/// `samples` (params `{}`), with `{"good_definition": DEF, "bad_definitions":
/// [DEF...], "valid_inputs": [...], "invalid_inputs": [...], "valid_answers":
/// [...], "invalid_answers": [...]}` (only `good_definition` is required).
/// The programs never call it.
public enum ExternalFieldTypeCheck {
    /// What a check found.
    public struct Outcome: Sendable {
        /// The type name the file name gives, nil when the file is misnamed.
        public var name: String?
        /// The executable checked.
        public var path: String
        /// Every failure, in the order found; empty means conformant.
        public var failures: [ConformanceFailure]

        /// True when nothing failed.
        public var isConformant: Bool { failures.isEmpty }
    }

    /// Checks the executable at `path` with `settings` (its time limit and line limit).
    public static func run(path: String, settings: ExternalFieldTypeSettings) -> Outcome {
        let fileName = URL(fileURLWithPath: path).lastPathComponent
        guard let name = ExternalFieldTypeDiscovery.typeName(fileName: fileName) else {
            return Outcome(
                name: nil, path: path,
                failures: [
                    ConformanceFailure(
                        check: "the file is named jqc-field-NAME, NAME of lowercase letters, digits and underscores",
                        sample: fileName, detail: "programs look only for such names; rename the file")
                ])
        }
        let type = ExternalFieldType(name: name, executablePath: path, settings: settings)
        if let failure = type.failure {
            return Outcome(
                name: name, path: path,
                failures: [
                    ConformanceFailure(
                        check: "the program starts and answers 'describe'", sample: fileName, detail: failure.message)
                ])
        }
        var failures: [ConformanceFailure] = []
        switch samples(of: type) {
        case .failed(let failure):
            failures.append(failure)
        case .samples(let samples):
            failures += FieldTypeConformance.check(type, samples: samples)
        }
        if let failure = type.failure {
            failures.append(
                ConformanceFailure(
                    check: "the program keeps to the protocol and the time limit",
                    sample: fileName, detail: failure.message))
        }
        return Outcome(name: name, path: path, failures: failures)
    }

    /// The kit's samples, or why the plugin gave none.
    enum SamplesOrFailure {
        case failed(ConformanceFailure)
        case samples(ConformanceSamples)
    }

    /// The plugin's answer to `samples`, read as the kit's samples.
    static func samples(of type: ExternalFieldType) -> SamplesOrFailure {
        let check = "the program answers 'samples' with a good definition and examples"
        func failure(_ detail: String) -> SamplesOrFailure {
            .failed(ConformanceFailure(check: check, sample: "samples", detail: detail))
        }
        let result: JSONValue
        switch type.call("samples") {
        case .unavailable(let reason): return failure(reason)
        case .refused(let message): return failure("it refused: \(message)")
        case .result(let value): result = value
        }
        func definition(_ json: JSONValue, _ index: Int) -> FieldDefinition? {
            if case .success(let field) = FieldDefinition.decode(json, index: index) { return field }
            return nil
        }
        guard let goodJSON = result["good_definition"], let good = definition(goodJSON, 0) else {
            return failure("its result has no 'good_definition' field object with an 'id' and a 'type'")
        }
        var bad: [FieldDefinition] = []
        for (index, json) in (result["bad_definitions"]?.arrayValue ?? []).enumerated() {
            guard let field = definition(json, index) else {
                return failure("bad definition \(index + 1) is not a field object with an 'id' and a 'type'")
            }
            bad.append(field)
        }
        var inputs: [String: [String]] = [:]
        for key in ["valid_inputs", "invalid_inputs"] {
            let list = result[key]?.arrayValue ?? []
            guard list.allSatisfy({ $0.stringValue != nil }) else {
                return failure("'\(key)' must be a list of strings")
            }
            inputs[key] = list.compactMap(\.stringValue)
        }
        return .samples(
            ConformanceSamples(
                goodDefinition: good, badDefinitions: bad,
                validInputs: inputs["valid_inputs"] ?? [], invalidInputs: inputs["invalid_inputs"] ?? [],
                validAnswers: result["valid_answers"]?.arrayValue ?? [],
                invalidAnswers: result["invalid_answers"]?.arrayValue ?? []))
    }
}
