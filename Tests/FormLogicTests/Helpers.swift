import FieldTypes
import FormLogic
import Models
import SiteFieldTypes

/// The registry the apps and the server use.
let registry = FieldTypeRegistry.builtIn().addingSiteFieldTypes()

/// Compiles the logic of a form written as JSON field objects.
func logic(_ fields: [JSONValue]) throws -> FormLogic {
    FormLogic(schema: try FormSchema.decode(["fields": .array(fields)]).get(), registry: registry)
}

/// The codes of every lint problem of a form.
func codes(_ fields: [JSONValue]) throws -> [String] {
    try logic(fields).problems.map(\.code.rawValue)
}
