import FieldTypes
import FormLogic
import Models
import ServerStore
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
    /// Earlier versions asked for, by id and version: a published version never changes.
    private let earlier = Mutex<[String: CompiledTemplate]>([:])

    init(registry: FieldTypeRegistry) { self.registry = registry }

    /// The current templates by id.
    func templates(in session: any StorageSession) throws(ServerError) -> [String: CompiledTemplate] {
        let revision = try session.templateRevision()
        if let cached = loaded.withLock({ $0 }), cached.revision == revision { return cached.templates }
        var compiled: [String: CompiledTemplate] = [:]
        // Retired templates too: a report made on one before it was retired is still judged.
        for template in try session.managedTemplates().map(\.template) {
            compiled[template.id] = CompiledTemplate(
                template: template, logic: FormLogic(schema: template.schema, registry: registry))
        }
        loaded.withLock { $0 = (revision, compiled) }
        return compiled
    }

    /// The version a report names (contract 1.1), compiled once: the current
    /// one when it names none or the current version, else the published one;
    /// nil for a version this server never published.
    func template(
        id: String, version: Int?, current: [String: CompiledTemplate],
        in session: any StorageSession
    ) throws(ServerError) -> CompiledTemplate? {
        guard let now = current[id] else { return nil }
        guard let version, version != now.template.version else { return now }
        let key = "\(id)\u{0}\(version)"
        if let cached = earlier.withLock({ $0[key] }) { return cached }
        guard let template = try session.templateVersion(id: id, version: version) else { return nil }
        let compiled = CompiledTemplate(
            template: template, logic: FormLogic(schema: template.schema, registry: registry))
        earlier.withLock { $0[key] = compiled }
        return compiled
    }
}
