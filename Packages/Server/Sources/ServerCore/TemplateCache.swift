import FieldTypes
import FormLogic
import Models
import Synchronization

/// A template with its form logic compiled once, to judge many reports with.
struct CompiledTemplate: Sendable {
    let template: Template
    let logic: FormLogic
}

/// The templates in memory, each compiled once, so judging a sync batch
/// reads no template from the database and compiles no form logic.
///
/// The store keeps a template revision that every import bumps (demo
/// seeding, `admin import-templates`, whichever process writes it); each use
/// reads that one value and reloads the templates when it changed.
final class TemplateCache: Sendable {
    private let registry: FieldTypeRegistry
    private let loaded = Mutex<(revision: Int64, templates: [String: CompiledTemplate])?>(nil)

    init(registry: FieldTypeRegistry) { self.registry = registry }

    /// The current templates by id.
    func templates(in session: any StorageSession) throws(ServerError) -> [String: CompiledTemplate] {
        let revision = try session.templateRevision()
        if let cached = loaded.withLock({ $0 }), cached.revision == revision { return cached.templates }
        var compiled: [String: CompiledTemplate] = [:]
        // Retired templates too: a report made on one before it was retired is still judged.
        for template in try session.managedTemplates().map(\.template) {
            compiled[template.id] = CompiledTemplate(template: template, logic: FormLogic(schema: template.schema, registry: registry))
        }
        loaded.withLock { $0 = (revision, compiled) }
        return compiled
    }
}
