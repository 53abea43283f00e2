import FieldTypes

/// The site-measurement field types, for a program's composition root.
///
/// ```swift
/// let registry = FieldTypeRegistry.builtIn().addingSiteFieldTypes()
/// ```
public enum SiteFieldTypes {
    /// One value of each type this package provides.
    public static let all: [any FieldType] = [
        GeopointField(), BarcodeField(), TemperatureField(), DurationField(), MeterReadingField(),
    ]

    /// Registers every type of `all` into `registry`; fails, registering
    /// nothing, when one of the names is already taken or not valid.
    public static func register(into registry: inout FieldTypeRegistry) throws(FieldTypesError) {
        var extended = registry
        for type in all { try extended.register(type) }
        registry = extended
    }
}

extension FieldTypeRegistry {
    /// This registry plus the site-measurement types. A name this registry
    /// already has keeps its own type (the built-ins define none of them, and
    /// a test checks it), so the composition root stays one expression.
    public func addingSiteFieldTypes() -> FieldTypeRegistry {
        var extended = self
        for type in SiteFieldTypes.all where extended.type(named: type.name) == nil {
            // The name is free and well formed (SiteFieldTypesTests checks every name), so this cannot fail.
            try? extended.register(type)
        }
        return extended
    }
}
