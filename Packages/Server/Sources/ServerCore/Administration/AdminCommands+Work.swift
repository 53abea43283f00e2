import ArgumentParsing
import Models
import ServerStore

/// `jqc-server admin assignment ...` and `template ...`: work given to
/// inspectors and the forms they fill in, named noun first.
extension AdminCommands {
    /// `assignment list --open`.
    static let openOnly = Flag("open", help: "only assignments still to do (neither done nor cancelled)")
    /// `assignment add --due`, required.
    static let due = Option(
        "due", "RFC3339", help: "due by: an RFC 3339 time, or YYYY-MM-DD (the end of that day, UTC; required)")
    /// `assignment update --inspector`.
    static let otherInspector = Option(
        "inspector", "USER",
        help: "give it to another inspector: it is cancelled and made anew for them, under a new id")

    static let workCommands: [AdminCommand] = [
        AdminCommand(
            "assignment add", summary: "give an inspector an inspection to do; prints the assignment's id",
            options: [
                Work.template.spec, Work.facility.spec, Work.area.spec, Work.inspector.spec, due.spec, Work.id.spec,
            ],
            discussion:
                "Example: id=$(jqc-server admin --db server.db assignment add --template T1 --facility F-100 --inspector ana --due 2026-03-01)"
        ) { parsed, admin throws(ServerError) in
            guard let due = try parsed[due] else {
                throw ServerError.badRequest("'admin assignment add' needs --due, the time it is due by")
            }
            let record = try admin.createAssignment(
                .init(
                    id: try parsed[Work.id], inspector: try parsed[Work.inspector] ?? "",
                    templateID: try parsed[Work.template] ?? "", facilityID: try parsed[Work.facility] ?? "",
                    areaID: try parsed[Work.area], due: due), by: actor)
            return AdminOutput(lines: [show(record.assignment.id)], json: ["assignment": AdminWire.assignment(record)])
        },
        AdminCommand(
            "assignment update",
            summary: "change an open assignment's due date or inspector (or template, facility, area)",
            positionals: [Work.assignment.spec],
            options: [
                Work.otherDue.spec, otherInspector.spec, Work.otherTemplate.spec, Work.otherFacility.spec,
                Work.otherArea.spec,
            ],
            discussion:
                "A device follows only its own inspector's work: another inspector gets a new assignment (its id printed) and the first one's device sees the old one cancelled."
        ) { parsed, admin throws(ServerError) in
            let id = try parsed[Work.assignment]
            let edit = Administration.AssignmentChange(
                templateID: try parsed[Work.otherTemplate], facilityID: try parsed[Work.otherFacility],
                areaID: try parsed[Work.otherArea], due: try parsed[Work.otherDue])
            guard let inspector = try parsed[otherInspector] else {
                let record = try admin.changeAssignment(id: id, edit, by: actor)
                return AdminOutput(
                    lines: ["assignment \(show(record.assignment.id)) changed"],
                    json: ["assignment": AdminWire.assignment(record)])
            }
            let moved = try admin.reassignAssignment(id: id, to: inspector, edit, by: actor)
            let lines =
                moved.previous.assignment.id == moved.current.assignment.id
                ? ["assignment \(show(id)) changed"]
                : [
                    "assignment \(show(id)) is cancelled; assignment \(show(moved.current.assignment.id)) is \(show(inspector))'s"
                ]
            return AdminOutput(
                lines: lines,
                json: [
                    "assignment": AdminWire.assignment(moved.current),
                    "replaces": moved.previous == moved.current ? .null : AdminWire.assignment(moved.previous),
                ])
        },
        AdminCommand("assignment cancel", as: older("cancel-assignment")),
        AdminCommand(
            "assignment list", summary: "list assignments: open, done and cancelled, or only open ones",
            options: [openOnly.spec, Work.onlyInspector.spec]
        ) { parsed, admin throws(ServerError) in
            let list = try admin.assignments(inspector: try parsed[Work.onlyInspector], openOnly: parsed[openOnly])
            let empty =
                parsed[openOnly]
                ? "No open assignments." : "No assignments yet: create one with 'admin assignment add'."
            return AdminOutput(
                lines: try assignmentTable(list, admin: admin, empty: empty),
                json: ["assignments": .array(list.map(AdminWire.assignment))])
        },
        AdminCommand("assignments import", as: older("import-assignments")),
    ]

    static let templateCommands: [AdminCommand] = [
        AdminCommand("template publish", as: older("publish-template")),
        AdminCommand("template list", as: older("templates")),
        AdminCommand("template retire", as: older("retire-template")),
    ]

    /// The assignments as a table, inspectors by user name; `empty` when there are none.
    static func assignmentTable(_ list: [ManagedAssignment], admin: Administration, empty: String)
        throws(ServerError) -> [String]
    {
        let names = Dictionary(try admin.users().map { ($0.id, $0.username) }, uniquingKeysWith: { a, _ in a })
        return table(
            ["ID", "INSPECTOR", "TEMPLATE", "FACILITY", "AREA", "DUE", "STATE"],
            list.map {
                let state = $0.cancelledAt != nil ? "cancelled" : ($0.assignment.status == .open ? "open" : "done")
                return [
                    $0.assignment.id, names[$0.inspectorID] ?? $0.inspectorID, $0.assignment.templateID,
                    $0.assignment.facilityID, $0.assignment.areaID ?? "-", $0.assignment.dueAt ?? "-", state,
                ]
            }, empty: empty)
    }

    /// The templates as a table; `empty` when there are none.
    static func templateTable(_ list: [ManagedTemplate], empty: String) -> [String] {
        table(
            ["ID", "NAME", "VERSION", "VERSIONS", "FIELDS", "STATE"],
            list.map {
                [
                    $0.template.id, $0.template.name, String($0.template.version),
                    $0.versions.map(String.init).joined(separator: ","),
                    String($0.template.schema.fields.count), $0.retiredAt == nil ? "active" : "retired",
                ]
            }, empty: empty)
    }
}
