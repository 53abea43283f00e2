import ArgumentParsing
import FieldTypes
import Foundation
import JQCCore
import Models

/// action assign and action new: what supervisors and admins do, queued like every change.
extension ActionCommands {
    static let due = Option(
        "due", "TIME", help: "due by: an RFC 3339 time, or YYYY-MM-DD (the end of that day, UTC)",
        as: .checked(
            dueTime,
            otherwise: { word, label in
                "\(label) takes an RFC 3339 time such as 2026-03-01T17:00:00Z, or a day such as 2026-03-01; got \(OneLine.quote(word))."
            }))
    static let area = Option("area", "ID", help: "the area of the facility", as: .id)
    static let newFacility = Option("facility", "ID", help: "the facility (required)", as: .id)
    static let title = Option("title", "TEXT", help: "what needs doing, in a line (required)")
    static let details = Option("description", "TEXT", help: "more about it")
    static let severity = Option(
        "severity", "SEVERITY", help: "low, medium (the default), high or critical",
        as: .checked(
            IssueSeverity.init(typed:),
            otherwise: { word, label in
                "\(label) takes low, medium, high or critical; got \(OneLine.quote(word))."
            }))
    static let assignee = Option("assignee", "USER", help: "the user name to give it to")
    static let isInternal = Flag("internal", help: "keep it from the organisation's customers")

    /// An RFC 3339 time, or a day meaning its end (UTC), written back in RFC 3339.
    static func dueTime(_ word: String) -> String? {
        let text = word.trimmingCharacters(in: .whitespaces)
        if RFC3339.isDay(text) { return text + "T23:59:59Z" }
        return RFC3339.date(text).map { RFC3339.string($0) }
    }

    static let assign = Command(
        CommandSpec(
            "action assign", summary: "supervisors: give an action to someone, optionally with a due time",
            positionals: [action.spec, user.spec], options: [due.spec],
            discussion: """
                \(queuedNote)
                Example: jqc action assign 3f2a cora --due 2026-12-09
                Exit codes: 0 queued; 3 no such action; 5 you are not a supervisor or an admin.
                """)
    ) { (inv) throws(AppError) -> CommandOutput in
        let name = try inv[Self.user].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw AppError.usage("Give the user name to give the action to.") }
        let due = try inv[Self.due]
        return try queue(
            inv, WireActionChange(id: UUID(), assignee: .set(name), dueAt: due.map { .set($0) } ?? .absent))
    }

    static let new = Command(
        CommandSpec(
            "action new", summary: "supervisors: make a corrective action, with an id of its own",
            options: [
                newFacility.spec, area.spec, title.spec, details.spec, severity.spec, assignee.spec, due.spec,
                isInternal.spec,
            ],
            discussion: """
                \(queuedNote) The action is listed once the server has it.
                Example: jqc action new --facility F-100 --title 'Regrout the shower' --severity high --assignee cora
                Exit codes: 0 queued; 4 --facility or --title missing; 5 you are not a supervisor or an admin.
                """)
    ) { (inv) throws(AppError) -> CommandOutput in
        let user = try signedIn(inv)
        guard user.role.supervises else {
            throw AppError.blocked(
                .notAllowed, "Only supervisors and admins make actions; flag an issue on a report instead.")
        }
        guard let facility = try inv[Self.newFacility] else {
            throw AppError.validation("'action new' needs --facility ID, where the work is.")
        }
        let title = (try inv[Self.title] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw AppError.validation("'action new' needs --title TEXT, what needs doing.") }
        let action = WireNewAction(
            id: UUID(), facilityID: facility, areaID: try inv[Self.area], title: title,
            description: try inv[Self.details], severity: try inv[Self.severity], assignee: try inv[Self.assignee],
            dueAt: try inv[Self.due], isInternal: inv[Self.isInternal] ? true : nil)
        try inv.workspace().queueNewAction(action)
        let id = action.id.uuidString.lowercased()
        return CommandOutput(
            lines: ["Action \"\(oneLine(title))\" queued; the server makes it at the next sync."],
            json: ["queued": ["request_id": .string(id), "kind": "new", "title": .string(title)]])
    }
}
