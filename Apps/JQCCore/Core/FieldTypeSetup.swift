import ExternalFieldTypes
import FieldTypes
import Foundation
import ProgramOutput
import SiteFieldTypes
import Storage

/// The composition root of field types for `jqc` and `jqc-agent`: the
/// built-in types, the site package's, and the external types found in
/// `JQC_FIELD_TYPES_PATH` and then the profile's `field-types/` folder.
public enum FieldTypeSetup {
    /// The registry a program runs with; external types are found, not started.
    public static func registry(profile: Profile, environment: [String: String], program: Program) -> FieldTypeRegistry
    {
        let settings = settings(environment: environment, program: program)
        let found = ExternalFieldTypeDiscovery.find(in: directories(profile: profile, environment: environment))
        return FieldTypeRegistry.builtIn().addingSiteFieldTypes().addingExternalFieldTypes(found, settings: settings)
    }

    /// Where external types are looked for, in order.
    static func directories(profile: Profile, environment: [String: String]) -> [String] {
        ExternalFieldTypeDiscovery.directories(environment: environment, then: [profile.fieldTypesDirectory.path])
    }

    /// The time limit from `JQC_FIELD_TYPE_TIMEOUT` (the default, with a warning, when it is unusable)
    /// and a warning line on stderr: plain for `jqc`, a JSON log line for `jqc-agent`.
    public static func settings(environment: [String: String], program: Program) -> ExternalFieldTypeSettings {
        let warn = program.warn
        var settings = ExternalFieldTypeSettings(warn: warn)
        do throws(ExternalFieldTypesError) {
            if let timeout = try ExternalFieldTypeSettings.timeout(environment: environment) {
                settings.timeout = timeout
            }
        } catch {
            warn("\(error.message); using \(Int(ExternalFieldTypeSettings.defaultTimeout)) s")
        }
        return settings
    }
}

extension Profile {
    /// The profile's folder of external field types, `field-types/` in the data folder.
    var fieldTypesDirectory: URL { dataDirectory.appendingPathComponent("field-types", isDirectory: true) }
}
