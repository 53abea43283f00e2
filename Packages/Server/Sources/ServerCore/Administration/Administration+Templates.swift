import FormLogic
import Foundation
import Models
import ServerStore

/// Templates: published from a file after the whole lint, every version
/// kept, retired when no longer used.
extension Administration {
    /// What publishing did.
    enum Publication: Sendable, Equatable {
        /// A new version is current.
        case published(id: String, version: Int)
        /// The file equals the current version: nothing was published.
        case unchanged(id: String, version: Int)
    }

    func templates() throws(ServerError) -> [ManagedTemplate] {
        try store.read { try $0.managedTemplates() }
    }

    /// Publishes every template of a document (`{"templates": [...]}`, or
    /// one template object) as a new version of its id, after the lint the
    /// device runs (field types, grid, form logic): a document with any
    /// problem is refused (422 `TEMPLATE_INVALID`) listing them all, and
    /// nothing is published. A template equal to its current version is
    /// left as it is; otherwise its version is the next after the highest
    /// ever published (or the file's own, when that is higher).
    func publishTemplates(_ document: JSONValue, source: String, by actor: AdminActor) throws(ServerError)
        -> [Publication]
    {
        let wrapped = TemplateLint.listed(document)
        let (_, problems) = TemplateLint.problems(wrapped, source: source, registry: judge.registry)
        guard problems.isEmpty else {
            throw ServerError.unprocessable(
                code: .templateInvalid,
                "'\(source)' was not published; \(problems.count) problem\(problems.count == 1 ? "" : "s"): "
                    + problems.joined(separator: "; "))
        }
        var templates: [Template] = []
        for item in wrapped["templates"]?.arrayValue ?? [] {
            if case .success(let template) = Template.decode(item) { templates.append(template) }
        }
        guard !templates.isEmpty else { throw ServerError.badRequest("'\(source)' holds no template") }
        return try change(by: actor) { session, events in
            let existing = try session.managedTemplates()
            var out: [Publication] = []
            for var template in templates {
                let id = try AdminInput.id(template.id, "a template")
                let current = existing.first { $0.template.id == id }
                if let current, current.template.name == template.name,
                    current.template.passThreshold == template.passThreshold,
                    CanonicalJSON.string(current.template.rawSchema) == CanonicalJSON.string(template.rawSchema)
                {
                    out.append(.unchanged(id: id, version: current.template.version))
                    continue
                }
                let highest = current?.versions.max() ?? 0
                template.version = max(template.version, highest + 1)
                try session.publishTemplate(template, publishedBy: actor.id, now: now())
                if current?.retiredAt != nil { try session.setTemplateRetired(id: id, at: nil) }
                try events.record(
                    "template.published", id,
                    [
                        "version": .integer(Int64(template.version)), "name": .string(template.name),
                        "fields": .integer(Int64(template.schema.fields.count)),
                    ])
                out.append(.published(id: id, version: template.version))
            }
            return out
        }
    }

    /// Retires a template (devices no longer get it; reports made on it are
    /// still accepted) or brings it back.
    func setTemplateRetired(id: String, retired: Bool, by actor: AdminActor) throws(ServerError) -> ManagedTemplate {
        try change(by: actor) { session, events in
            guard var record = try session.managedTemplates().first(where: { $0.template.id == id }) else {
                throw ServerError.notFound("no template '\(id)'")
            }
            guard (record.retiredAt != nil) != retired else { return record }
            record.retiredAt = retired ? events.at : nil
            try session.setTemplateRetired(id: id, at: record.retiredAt)
            try events.record(retired ? "template.retired" : "template.restored", id)
            return record
        }
    }
}
