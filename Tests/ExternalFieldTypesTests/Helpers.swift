import ExternalFieldTypes
import FieldTypeConformance
import FieldTypes
import Foundation
import Models
import Synchronization
import TestSupport

/// The warning lines a program would print, kept for a test to read.
final class Warnings: Sendable {
    private let lines = Mutex<[String]>([])

    /// Everything warned so far.
    var all: [String] { lines.withLock { $0 } }

    /// Settings that warn into this value, with `timeout` seconds per answer.
    func settings(timeout: TimeInterval = ExternalFieldTypeSettings.defaultTimeout) -> ExternalFieldTypeSettings {
        ExternalFieldTypeSettings(timeout: timeout, warn: { line in self.lines.withLock { $0.append(line) } })
    }
}

/// The built-in types plus every plugin found in `directory`, as the programs compose theirs.
func registry(with directory: String, settings: ExternalFieldTypeSettings) -> FieldTypeRegistry {
    FieldTypeRegistry.builtIn().addingExternalFieldTypes(
        ExternalFieldTypeDiscovery.find(in: [directory]), settings: settings)
}

/// A pH field passing from 6.5 to 8.5.
let cleanerPH = FieldDefinition(
    id: "2", type: "ph_reading", label: "Floor cleaner pH", required: true, critical: true,
    extra: ["allowed_min": 6.5, "allowed_max": 8.5])

let context = ConformanceSamples.defaultContext

/// Typed input read by the field's type, as a Result to compare in `#expect`.
func typed(_ input: String, _ field: FieldDefinition, in registry: FieldTypeRegistry) -> Result<
    JSONValue, AnswerInputError
> {
    Result { () throws(AnswerInputError) -> JSONValue in try registry.parse(input, for: field, context: context) }
}
