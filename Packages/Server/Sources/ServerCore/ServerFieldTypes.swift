import FieldTypes
import SiteFieldTypes

/// The server's composition root for field types: the one place that says
/// which types `jqc-server` knows when it validates and scores answers.
enum ServerFieldTypes {
    /// The registry every judge of this server uses.
    static func registry() -> FieldTypeRegistry {
        FieldTypeRegistry.builtIn().addingSiteFieldTypes()
    }
}
