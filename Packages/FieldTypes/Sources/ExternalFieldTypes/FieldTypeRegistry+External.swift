import FieldTypes

extension FieldTypeRegistry {
    /// This registry plus an `ExternalFieldType` for each finding. A name the
    /// registry already has keeps its compiled-in type; the executable is
    /// ignored and `settings.warn` says so. Nothing is started here.
    public func addingExternalFieldTypes(
        _ found: [ExternalFieldTypeDiscovery.Found],
        settings: ExternalFieldTypeSettings
    ) -> FieldTypeRegistry {
        var extended = self
        for item in found {
            guard extended.type(named: item.name) == nil else {
                settings.warn(
                    "\(item.path) is ignored: field type '\(item.name)' is compiled in, and the compiled-in type wins")
                continue
            }
            // The name is well formed (discovery keeps only such names) and free (checked above), so this cannot fail.
            try? extended.register(ExternalFieldType(name: item.name, executablePath: item.path, settings: settings))
        }
        return extended
    }

    /// The external field types this registry holds, by name.
    public var externalFieldTypes: [ExternalFieldType] {
        names.compactMap { type(named: $0) as? ExternalFieldType }
    }
}
