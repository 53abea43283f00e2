import FieldTypes
import JQCCore
import Models

/// What `diff` and `resolve` print, and what the menu shows for a report in
/// CONFLICT: the two sides field by field, and where a decision left it.
struct ConflictPresenter {
    let workspace: Workspace
    let style: TerminalStyle

    /// The comparison: both revisions named, how many fields differ, and a
    /// table of every field with this device's answer and the server's.
    func diffLines(_ report: Report, fields: [ConflictField]) -> [String] {
        let rows = fields.map { f -> [String] in
            [
                f.open ? "≠" : f.settled.map { $0 == .mine ? "mine" : "server" } ?? "", f.field.id.rawValue,
                f.field.label.isEmpty ? f.field.type : f.field.label, mine(f), server(f),
            ]
        }
        let differing = fields.filter(\.open).count
        let settled = fields.filter { $0.settled != nil }.count
        let merged =
            settled == 0
            ? ""
            : " \(settled) other\(settled == 1 ? " was" : "s were") changed on one side only and merge\(settled == 1 ? "s" : "") by itself (marked mine or server)."
        return [
            "Report \(workspace.short(report)): mine is based on revision \(report.lifecycle.baseRevision.map(String.init) ?? "-"), the server is at revision \(report.lifecycle.conflict.map { String($0.revision) } ?? "-").",
            "\(differing) field\(differing == 1 ? "" : "s") differ\(differing == 1 ? "s" : "").\(merged)", "",
        ]
            + TextTable.render(["", "FIELD", "LABEL", "MINE", "SERVER"], rows, maxColumn: 24)
    }

    /// This device's answer to one field, as one line.
    func mine(_ field: ConflictField) -> String {
        workspace.registry.resolve(field.field).display(field.mine, for: field.field, style: style)
    }

    /// The server's answer to one field, as one line.
    func server(_ field: ConflictField) -> String {
        workspace.registry.resolve(field.field).display(field.server, for: field.field, style: style)
    }

    /// Where a decision left the report.
    func resolvedLine(_ resolved: Report) -> String {
        resolved.state == .synced
            ? "Took the server's revision \(resolved.lifecycle.baseRevision.map(String.init) ?? ""); report \(workspace.short(resolved)) is SYNCED. Your answers are kept in its history."
            : "Report \(workspace.short(resolved)) is PENDING on top of server revision \(resolved.lifecycle.baseRevision.map(String.init) ?? ""); it uploads at the next sync."
    }
}
