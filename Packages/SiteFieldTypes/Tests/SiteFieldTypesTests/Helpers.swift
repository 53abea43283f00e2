import FieldTypeConformance
import FieldTypes
import Foundation
import Models
import SiteFieldTypes

/// A field decoded from template JSON, as the apps decode it (so `raw` holds every key).
func definition(_ json: String) throws -> FieldDefinition {
    try FieldDefinition.decode(JSONValue.parse(Data(json.utf8)), index: 0).get()
}

/// A JSON answer from its text.
func answer(_ json: String) throws -> JSONValue {
    try JSONValue.parse(Data(json.utf8))
}

/// The built-ins plus the site types, built as the composition roots build theirs.
let registry = FieldTypeRegistry.builtIn().addingSiteFieldTypes()

/// Typed input read by the field's type, nil when refused.
func parsed(_ input: String, _ field: FieldDefinition) -> JSONValue? {
    try? registry.parse(input, for: field, context: ConformanceSamples.defaultContext)
}

/// The message of a refused input, or nil when it was read.
func refusal(_ input: String, _ field: FieldDefinition) -> String? {
    do {
        _ = try registry.parse(input, for: field, context: ConformanceSamples.defaultContext)
        return nil
    } catch {
        return error.message
    }
}
