import Foundation
import FieldTypes
import JQCCore
import Models

/// `show LOCAL_ID --history`: every revision of a report's answers kept on
/// this device, each with its number, when (device clock), what saved it and
/// the answers that changed from the revision before.
struct RevisionsPresenter {
    let workspace: Workspace
    let style: TerminalStyle

    /// One answer that changed in a revision.
    struct Change {
        let field: FieldDefinition
        let before: JSONValue?
        let after: JSONValue?
    }

    /// The lines and the `--json` document.
    func output(_ report: Report) throws(AppError) -> CommandOutput {
        let revisions = try workspace.revisions(of: report)
        let template = try? workspace.template(for: report)
        // Each revision's fields are named as the version it was saved on has
        // them (a field a later version removed keeps its label), then the report's.
        var versions: [Int: [FieldDefinition]] = [:]
        func fields(of revision: ReportRevision) -> [FieldDefinition] {
            let own = template?.schema.fields ?? []
            guard let version = revision.templateVersion, version != template?.version else { return own }
            if versions[version] == nil {
                versions[version] =
                    (try? workspace.template(id: report.templateID, version: version))?.schema.fields ?? []
            }
            let old = versions[version] ?? []
            let ids = Set(old.map(\.id))
            return old + own.filter { !ids.contains($0.id) }
        }
        var lines = [
            "Report \(workspace.short(report)): \(revisions.count) revision\(revisions.count == 1 ? "" : "s") kept on this device, oldest first (times are this device's clock)."
        ]
        var documents: [JSONValue] = []
        var previous = Answers()
        var previousFields = template?.schema.fields ?? []
        for (index, revision) in revisions.enumerated() {
            let named = fields(of: revision)
            let ids = Set(named.map(\.id))
            let changes = Self.changes(
                from: previous, to: revision.answers, fields: named + previousFields.filter { !ids.contains($0.id) })
            previous = revision.answers
            previousFields = named
            let server = revision.serverRevision.map { ", server revision \($0)" } ?? ""
            lines.append(
                "#\(index + 1)  \(RFC3339.string(revision.savedAtDevice))  \(Self.phrase(revision.reason))\(revision.reason == .templateMove || revision.reason == .templateKept ? revision.templateVersion.map { " v\($0)" } ?? "" : "") (\(revision.state.rawValue)\(server))"
                    + (changes.isEmpty ? "  no answer changed" : ""))
            for change in changes {
                let shown =
                    change.after == nil
                    ? "cleared" : workspace.registry.display(change.field, change.after, style: style)
                // The field's id and label came from the template (or the server's answers): through OneLine.
                lines.append("      \(ReportPresenter.name(change.field)): \(shown)")
            }
            for item in revision.setAside {
                // The answer as it was (JSON), and why the new version could not take it.
                lines.append(
                    "      set aside [\(oneLine(item.fieldID.rawValue))]: \(flatLine(item.answer.canonicalString()))  (\(flatLine(item.reason)))"
                )
            }
            documents.append([
                "number": .integer(Int64(index + 1)),
                "saved_at_device": .string(RFC3339.string(revision.savedAtDevice)),
                "reason": .string(revision.reason.rawValue),
                "state": .string(revision.state.rawValue),
                "server_revision": revision.serverRevision.map { .integer(Int64($0)) } ?? .null,
                "template_version": revision.templateVersion.map { .integer(Int64($0)) } ?? .null,
                "set_aside": .array(revision.setAside.map(\.json)),
                "changed": .array(
                    changes.map { change in
                        [
                            "field_id": .string(change.field.id.rawValue), "label": .string(change.field.label),
                            "before": change.before ?? .null, "after": change.after ?? .null,
                        ]
                    }),
            ])
        }
        return CommandOutput(
            lines: lines,
            json: [
                "local_id": .string(report.localID.uuidString.lowercased()),
                "revisions": .array(documents),
            ])
    }

    /// The answers that differ between two revisions, in form order (fields
    /// the form does not know after them).
    static func changes(from before: Answers, to after: Answers, fields: [FieldDefinition]) -> [Change] {
        let known = Set(fields.map(\.id))
        let extra = Set(before.answeredIDs + after.answeredIDs).subtracting(known).sorted()
        let all = fields + extra.map { FieldDefinition(id: $0, type: "unknown") }
        return all.compactMap { field in
            before[field.id] == after[field.id]
                ? nil : Change(field: field, before: before[field.id], after: after[field.id])
        }
    }

    /// What saved a revision, in words.
    static func phrase(_ reason: RevisionReason) -> String {
        switch reason {
        case .created: return "started"
        case .autosave: return "answer saved"
        case .complete: return "completed"
        case .keepMine: return "conflict resolved, this device's answers kept"
        case .takeServer: return "conflict resolved, the server's answers taken"
        case .restoreSynced: return "amendment discarded, the synced answers put back"
        case .merged: return "merged with the server's changes"
        case .templateMove: return "moved onto a new template version"
        case .templateKept: return "put back on its template version"
        }
    }
}
