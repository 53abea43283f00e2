import FieldTypeConformance
import FieldTypes
import Foundation
import Models

/// The registry every test uses: the built-in types, built here as the apps build theirs.
let registry = FieldTypeRegistry.builtIn()

/// 2026-03-01T14:02:00Z, a fixed digest and report id.
let context = ConformanceSamples.defaultContext

let digest = String(repeating: "ab", count: 32)
let photoA = "6f1c2a7e-3b7d-4c55-9a51-2f4e8f0c9d11"
let photoB = "0d9e8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b"

let floor = FieldDefinition(id: "9", type: "radio", label: "Floor condition", options: ["Good", "Fair", "Poor"])
let shift = FieldDefinition(id: "10", type: "select", label: "Shift", options: ["Morning", "Evening", "Night"])
let supplies = FieldDefinition(
    id: "8", type: "checkbox_group", label: "Supplies restocked",
    options: ["Soap", "Paper towels", "Toilet paper"])
let stars = FieldDefinition(id: "11", type: "rating", label: "Overall cleanliness")
let repairs = FieldDefinition(
    id: "15", type: "table", label: "Fixtures needing repair", columns: ["Fixture", "Problem", "Urgency"])

/// A field of `type` with an id and label, for types whose definition has no keys of its own.
func field(_ type: String, id: FieldID = "f", label: String = "Question") -> FieldDefinition {
    FieldDefinition(id: id, type: type, label: label)
}

/// Typed input read by the field's type, as a Result to compare in `#expect`.
func typed(_ input: String, _ field: FieldDefinition) -> Result<JSONValue, AnswerInputError> {
    Result { () throws(AnswerInputError) -> JSONValue in try registry.parse(input, for: field, context: context) }
}

/// The message of a refused input, or nil when it was read.
func refusal(_ input: String, _ field: FieldDefinition) -> String? {
    if case .failure(let error) = typed(input, field) { return error.message }
    return nil
}

/// A signature object as the contract writes it.
func signature(_ signer: String, at time: String = "2026-03-01T14:02:00Z", sha256: String = digest) -> JSONValue {
    .object(["signer": .string(signer), "signed_at_device": .string(time), "sha256": .string(sha256)])
}
