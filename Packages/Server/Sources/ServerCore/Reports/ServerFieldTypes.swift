import ExternalFieldTypes
import FieldTypes
import Foundation
import ProgramOutput
import SiteFieldTypes

/// The server's composition root for field types: the one place that says
/// which types `jqc-server` knows when it validates and scores answers.
enum ServerFieldTypes {
    /// The registry every judge of this server uses: the built-in types, the
    /// site package's, and the external types found in `JQC_FIELD_TYPES_PATH`
    /// and then in each of `directories` (`--field-types-dir`). External
    /// types start when a template first needs them; each failure is one
    /// line through `warn`.
    static func registry(
        directories: [String] = [], timeout: TimeInterval? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        warn: @escaping @Sendable (String) -> Void = {
            OutputChannel.standardError.write("jqc-server: warning: \($0)\n")
        }
    )
        -> FieldTypeRegistry
    {
        var settings = ExternalFieldTypeSettings(warn: warn)
        if let timeout {
            settings.timeout = timeout
        } else {
            do throws(ExternalFieldTypesError) {
                if let fromEnvironment = try ExternalFieldTypeSettings.timeout(environment: environment) {
                    settings.timeout = fromEnvironment
                }
            } catch {
                warn("\(error.message); using \(Int(ExternalFieldTypeSettings.defaultTimeout)) s")
            }
        }
        let found = ExternalFieldTypeDiscovery.find(
            in: ExternalFieldTypeDiscovery.directories(environment: environment, then: directories))
        return FieldTypeRegistry.builtIn().addingSiteFieldTypes().addingExternalFieldTypes(found, settings: settings)
    }
}
