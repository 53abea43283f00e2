import ArgumentParsing
import FieldTypes
import Foundation
import Models
import ProgramOutput
import ServerStore

/// What an admin command says: lines for a person, a document for `--json`.
struct AdminOutput {
    var lines: [String]
    var json: JSONValue
}

/// One `jqc-server admin` command: its spec and what it does.
struct AdminCommand: Sendable {
    private(set) var spec: CommandSpec
    let run: @Sendable (AdminArguments, Administration) throws(ServerError) -> AdminOutput

    init(
        _ name: String, summary: String, positionals: [PositionalSpec] = [], options: [OptionSpec] = [],
        discussion: String? = nil,
        run: @escaping @Sendable (AdminArguments, Administration) throws(ServerError) -> AdminOutput
    ) {
        spec = CommandSpec(
            "admin " + name, summary: summary, positionals: positionals,
            options: [AdminCommands.db.spec, ServerCommand.json.spec] + options,
            discussion: discussion)
        self.run = run
    }

    /// `older` under a new name (`facility add` for `add-facility`): the same
    /// arguments, options and work, with its own summary when it is given.
    init(_ name: String, as older: AdminCommand, summary: String? = nil) {
        spec = older.spec
        spec.name = "admin " + name
        if let summary { spec.summary = summary }
        run = older.run
    }

    /// The words after `admin` that name it (`facility add`).
    var name: String { String(spec.name.dropFirst("admin ".count)) }
}

/// The administration commands of `jqc-server admin`, run against the
/// database directly (servers may be running on it). Each change is an
/// event of the log (`admin events`), its actor the operator's login name.
enum AdminCommands {
    static let actor = AdminActor.commandLine

    /// `--db`, as the administration commands describe it (a SQLite file or a PostgreSQL URL).
    static let db = Option("db", "FILE|URL", help: "the server's database")

    /// Every command `admin --help` lists, noun first (`facility add`), in the order it lists them.
    static let all: [AdminCommand] = [
        siteCommands, workCommands, scheduleCommands, templateCommands, userCommands, settingCommands, [events],
        webhooks,
        mailCommands,
        backups,
    ].flatMap { $0 }

    /// The older, verb-first names (`add-facility`, `assign`, `users`): each
    /// works as it always has, for the scripts that use it, but help, the man
    /// page and completion list only the names of `all`.
    static let aliases: [AdminCommand] = sites + assignments + templates + users

    // MARK: Sites

    static let sites: [AdminCommand] = [
        AdminCommand("facilities", summary: "list every facility, retired ones marked") {
            _, admin throws(ServerError) in
            let list = try admin.facilities()
            return AdminOutput(
                lines: facilityTable(
                    list,
                    empty:
                        "No facilities yet: add one with 'admin facility add' or import a spreadsheet with 'admin facilities import'."
                ),
                json: ["facilities": .array(list.map(AdminWire.facility))])
        },
        AdminCommand(
            "add-facility", summary: "add a facility (a site devices inspect)",
            positionals: [Site.newFacility.spec],
            options: [Site.name.spec, Site.address.spec, Site.project.spec]
        ) { parsed, admin throws(ServerError) in
            let record = try admin.addFacility(
                Facility(
                    id: try parsed[Site.newFacility], name: try parsed[Site.name] ?? "",
                    address: try parsed[Site.address] ?? "", projectName: try parsed[Site.project] ?? ""),
                by: actor)
            return AdminOutput(
                lines: ["added facility \(show(record.facility.id)) (\(show(record.facility.name)))"],
                json: ["facility": AdminWire.facility(record)])
        },
        AdminCommand(
            "edit-facility", summary: "change a facility's name, address or project",
            positionals: [Site.facility.spec],
            options: [Site.newName.spec, Site.newAddress.spec, Site.newProject.spec]
        ) { parsed, admin throws(ServerError) in
            let record = try admin.changeFacility(
                id: try parsed[Site.facility],
                .init(
                    name: try parsed[Site.newName], address: try parsed[Site.newAddress],
                    projectName: try parsed[Site.newProject]), by: actor)
            return AdminOutput(
                lines: [
                    "facility \(show(record.facility.id)): \(show(record.facility.name)), \(show(record.facility.address))"
                ],
                json: ["facility": AdminWire.facility(record)])
        },
        AdminCommand(
            "retire-facility", summary: "retire a facility: devices drop it at their next sync; its reports stay",
            positionals: [Site.facility.spec],
            options: [Site.restoreFacility.spec]
        ) { parsed, admin throws(ServerError) in
            let record = try admin.setFacilityRetired(
                id: try parsed[Site.facility], retired: !parsed[Site.restoreFacility], by: actor)
            return AdminOutput(
                lines: ["facility \(show(record.facility.id)) is \(record.retiredAt == nil ? "active" : "retired")"],
                json: ["facility": AdminWire.facility(record)])
        },
        AdminCommand(
            "import-facilities", summary: "add or update facilities from a CSV or JSON file, by id",
            positionals: [Site.facilitiesFile.spec],
            discussion:
                "Importing the same file twice changes nothing. A file with a bad row imports nothing and names the row."
        ) { parsed, admin throws(ServerError) in
            let path = try parsed[Site.facilitiesFile]
            let (sites, areas) = try admin.importFacilities(try read(path), source: path, by: actor)
            return AdminOutput(
                lines: [sites.summary("facilities")] + (areas == ImportOutcome() ? [] : [areas.summary("areas")]),
                json: ["facilities": sites.json, "areas": areas.json])
        },
        AdminCommand(
            "areas", summary: "list areas (of one facility, or all), retired ones marked",
            options: [Site.onlyFacility.spec]
        ) { parsed, admin throws(ServerError) in
            let list = try admin.areas(facilityID: try parsed[Site.onlyFacility])
            return AdminOutput(
                lines: table(
                    ["ID", "FACILITY", "NAME", "TYPE", "STATE"],
                    list.map {
                        [
                            $0.area.id, $0.area.facilityID, $0.area.name, $0.area.areaType,
                            $0.retiredAt == nil ? "active" : "retired",
                        ]
                    }, empty: "No areas."), json: ["areas": .array(list.map(AdminWire.area))])
        },
        AdminCommand(
            "add-area", summary: "add an area to a facility",
            positionals: [Site.newArea.spec],
            options: [Site.areaFacility.spec, Site.name.spec, Site.areaType.spec]
        ) { parsed, admin throws(ServerError) in
            let record = try admin.addArea(
                Area(
                    id: try parsed[Site.newArea], facilityID: try parsed[Site.areaFacility] ?? "",
                    name: try parsed[Site.name] ?? "", areaType: try parsed[Site.areaType] ?? ""), by: actor)
            return AdminOutput(
                lines: [
                    "added area \(show(record.area.id)) (\(show(record.area.name))) to facility \(show(record.area.facilityID))"
                ],
                json: ["area": AdminWire.area(record)])
        },
        AdminCommand(
            "edit-area", summary: "change an area's name or type",
            positionals: [Site.area.spec],
            options: [Site.newName.spec, Site.newAreaType.spec]
        ) { parsed, admin throws(ServerError) in
            let record = try admin.changeArea(
                id: try parsed[Site.area],
                .init(name: try parsed[Site.newName], areaType: try parsed[Site.newAreaType]),
                by: actor)
            return AdminOutput(
                lines: ["area \(show(record.area.id)): \(show(record.area.name)) (\(show(record.area.areaType)))"],
                json: ["area": AdminWire.area(record)])
        },
        AdminCommand(
            "retire-area", summary: "retire an area: devices drop it at their next sync; its reports stay",
            positionals: [Site.area.spec],
            options: [Site.restoreArea.spec]
        ) { parsed, admin throws(ServerError) in
            let record = try admin.setAreaRetired(
                id: try parsed[Site.area], retired: !parsed[Site.restoreArea], by: actor)
            return AdminOutput(
                lines: ["area \(show(record.area.id)) is \(record.retiredAt == nil ? "active" : "retired")"],
                json: ["area": AdminWire.area(record)])
        },
        AdminCommand(
            "import-areas", summary: "add or update areas from a CSV or JSON file, by id",
            positionals: [Site.areasFile.spec],
            discussion:
                "Importing the same file twice changes nothing. A file with a bad row imports nothing and names the row."
        ) { parsed, admin throws(ServerError) in
            let path = try parsed[Site.areasFile]
            let outcome = try admin.importAreas(try read(path), source: path, by: actor)
            return AdminOutput(lines: [outcome.summary("areas")], json: ["areas": outcome.json])
        },
    ]

    // MARK: Assignments

    static let assignments: [AdminCommand] = [
        AdminCommand(
            "assignments", summary: "list assignments: open, done and cancelled",
            options: [Work.onlyInspector.spec]
        ) { parsed, admin throws(ServerError) in
            let list = try admin.assignments(inspector: try parsed[Work.onlyInspector])
            return AdminOutput(
                lines: try assignmentTable(
                    list, admin: admin, empty: "No assignments yet: create one with 'admin assignment add'."),
                json: ["assignments": .array(list.map(AdminWire.assignment))])
        },
        AdminCommand(
            "assign", summary: "give an inspector an inspection to do: a template at a facility, by a due date",
            options: [
                Work.inspector.spec, Work.template.spec, Work.facility.spec, Work.area.spec, Work.due.spec,
                Work.id.spec,
            ],
            discussion:
                "Recurring schedules are not made here: create each assignment, or import them from a spreadsheet."
        ) { parsed, admin throws(ServerError) in
            let record = try admin.createAssignment(
                .init(
                    id: try parsed[Work.id], inspector: try parsed[Work.inspector] ?? "",
                    templateID: try parsed[Work.template] ?? "", facilityID: try parsed[Work.facility] ?? "",
                    areaID: try parsed[Work.area], due: try parsed[Work.due]), by: actor)
            let inspector = try parsed[Work.inspector] ?? record.inspectorID
            return AdminOutput(
                lines: [
                    "assignment \(show(record.assignment.id)) for \(show(inspector)): template \(show(record.assignment.templateID)) at \(show(record.assignment.facilityID))\(record.assignment.dueAt.map { ", due \($0)" } ?? "")"
                ],
                json: ["assignment": AdminWire.assignment(record)])
        },
        AdminCommand(
            "edit-assignment", summary: "change an open assignment's template, facility, area or due date",
            positionals: [Work.assignment.spec],
            options: [Work.otherTemplate.spec, Work.otherFacility.spec, Work.otherArea.spec, Work.otherDue.spec],
            discussion: "The inspector stays: give the work to someone else with 'assignment update --inspector'."
        ) { parsed, admin throws(ServerError) in
            let record = try admin.changeAssignment(
                id: try parsed[Work.assignment],
                .init(
                    templateID: try parsed[Work.otherTemplate],
                    facilityID: try parsed[Work.otherFacility],
                    areaID: try parsed[Work.otherArea], due: try parsed[Work.otherDue]),
                by: actor)
            return AdminOutput(
                lines: ["assignment \(show(record.assignment.id)) changed"],
                json: ["assignment": AdminWire.assignment(record)])
        },
        AdminCommand(
            "cancel-assignment", summary: "cancel an assignment: devices see it closed at their next sync",
            positionals: [Work.assignment.spec]
        ) { parsed, admin throws(ServerError) in
            let record = try admin.cancelAssignment(id: try parsed[Work.assignment], by: actor)
            return AdminOutput(
                lines: ["assignment \(show(record.assignment.id)) is cancelled"],
                json: ["assignment": AdminWire.assignment(record)])
        },
        AdminCommand(
            "import-assignments", summary: "add or update assignments from a CSV or JSON file, by id",
            positionals: [Work.assignmentsFile.spec],
            discussion:
                "Importing the same file twice changes nothing. A file with a bad row imports nothing and names the row."
        ) { parsed, admin throws(ServerError) in
            let path = try parsed[Work.assignmentsFile]
            let outcome = try admin.importAssignments(try read(path), source: path, by: actor)
            return AdminOutput(lines: [outcome.summary("assignments")], json: ["assignments": outcome.json])
        },
    ]

    // MARK: Templates

    static let templates: [AdminCommand] = [
        AdminCommand("templates", summary: "list templates with their versions, retired ones marked") {
            _, admin throws(ServerError) in
            let list = try admin.templates()
            return AdminOutput(
                lines: templateTable(list, empty: "No templates yet: publish one with 'admin template publish FILE'."),
                json: ["templates": .array(list.map(AdminWire.template))])
        },
        AdminCommand(
            "publish-template", summary: "publish templates from a file as new versions, after checking them",
            positionals: [Forms.templatesFile.spec],
            discussion:
                "The file is checked as 'jqc templates lint' checks it; any problem refuses the whole file (exit 4) and lists every one. A template equal to its current version is left alone; otherwise it becomes the next version. Devices get it at their next sync; reports are judged by the version they were made on."
        ) { parsed, admin throws(ServerError) in
            let path = try parsed[Forms.templatesFile]
            guard let document = try? JSONDecoder().decode(JSONValue.self, from: try read(path)) else {
                throw ServerError.badRequest("'\(path)' is not valid JSON")
            }
            let published = try admin.publishTemplates(document, source: path, by: actor)
            return AdminOutput(
                lines: published.map {
                    switch $0 {
                    case .published(let id, let version): "published template \(show(id)) version \(version)"
                    case .unchanged(let id, let version):
                        "template \(show(id)) is unchanged at version \(version); nothing published"
                    }
                }, json: ["templates": .array(published.map(AdminWire.publication))])
        },
        AdminCommand(
            "retire-template", summary: "retire a template: devices drop it; reports made on it are still accepted",
            positionals: [Forms.template.spec],
            options: [Forms.restoreTemplate.spec]
        ) { parsed, admin throws(ServerError) in
            let record = try admin.setTemplateRetired(
                id: try parsed[Forms.template], retired: !parsed[Forms.restoreTemplate], by: actor)
            return AdminOutput(
                lines: ["template \(show(record.template.id)) is \(record.retiredAt == nil ? "active" : "retired")"],
                json: ["template": AdminWire.template(record)])
        },
    ]

    // MARK: People

    static let users: [AdminCommand] = [
        AdminCommand(
            "users",
            summary: "list every user with their role, disabled ones marked, and the facilities each client sees"
        ) {
            _, admin throws(ServerError) in
            let list = try admin.usersAndFacilities()
            return AdminOutput(
                lines: userTable(
                    list, empty: "No users yet: add the first admin with 'admin user add NAME --role admin'."),
                json: ["users": .array(list.map { AdminWire.user($0.user, facilities: $0.facilities) })])
        },
        AdminCommand(
            "add-user", summary: "add a user (password read from stdin); an existing user name is refused",
            positionals: [People.newUsername.spec],
            options: [People.role.spec, People.displayName.spec],
            discussion:
                "The password, at least \(Administration.shortestPassword) characters, is asked without echo at a terminal, or read from the first line of standard input. An existing user name is refused (exit 7): change a user with 'user update' and a password with 'user set-password'."
        ) { parsed, admin throws(ServerError) in
            let role = try parsed[People.role]
            let username = try parsed[People.newUsername]
            let user = try admin.addUser(
                username: username, password: PasswordInput.read(for: username),
                role: role,
                displayName: try parsed[People.displayName], by: actor)
            return AdminOutput(
                lines: ["user \(show(user.username)) (\(user.role.rawValue)) has id \(user.id)"],
                json: ["user": AdminWire.user(user)])
        },
        AdminCommand(
            "edit-user", summary: "change a user's role or display name",
            positionals: [People.user.spec],
            options: [People.newRole.spec, People.newDisplayName.spec]
        ) { parsed, admin throws(ServerError) in
            let role = try parsed[People.newRole]
            let user = try admin.changeUser(
                try parsed[People.user], role: role, displayName: try parsed[People.newDisplayName], by: actor)
            return AdminOutput(
                lines: ["user \(show(user.username)) is a \(user.role.rawValue) named \(show(user.displayName))"],
                json: ["user": AdminWire.user(user)])
        },
        AdminCommand(
            "disable-user", summary: "disable a user: every session ends at once; their reports stay",
            positionals: [People.user.spec],
            options: [People.enable.spec]
        ) { parsed, admin throws(ServerError) in
            let user = try admin.setUserDisabled(
                try parsed[People.user], disabled: !parsed[People.enable], by: actor)
            return AdminOutput(
                lines: [
                    "user \(show(user.username)) is \(user.isDisabled ? "disabled; every session of theirs is signed out" : "enabled")"
                ],
                json: ["user": AdminWire.user(user)])
        },
        AdminCommand(
            "set-password", summary: "change a user's password (read from stdin) and sign them out everywhere",
            positionals: [People.passwordUser.spec],
            discussion:
                "The password, at least \(Administration.shortestPassword) characters, is asked without echo at a terminal, or read from the first line of standard input."
        ) { parsed, admin throws(ServerError) in
            let username = try parsed[People.passwordUser]
            let user = try admin.setPassword(username, password: PasswordInput.read(for: username), by: actor)
            return AdminOutput(
                lines: ["the password of \(show(user.username)) is changed; every session of theirs is signed out"],
                json: ["user": AdminWire.user(user)])
        },
    ]

    static let eventLimit = Option("limit", "N", help: "the newest N events (default 100)")

    static let events = AdminCommand(
        "events", summary: "the log of administrative changes: who, when, what",
        options: [eventLimit.spec]
    ) { parsed, admin throws(ServerError) in
        let list = try admin.events(limit: try AdminRoutes.limit(try parsed[eventLimit]), before: nil)
        return AdminOutput(
            lines: table(
                ["SEQ", "AT", "BY", "USERNAME", "NAME", "WHAT", "SUBJECT"],
                list.map {
                    [
                        String($0.sequence), $0.at, $0.byCommandLine ? "command line" : "user", $0.actorUsername ?? "-",
                        $0.actorName, $0.kind, $0.subject,
                    ]
                }, empty: "No administrative changes yet."), json: ["events": .array(list.map(AdminWire.event))])
    }

    // MARK: Output

    /// Text from the database, safe for a terminal.
    static func show(_ text: String) -> String { OneLine.escaped(text) }

    /// Columns padded to their widest cell, every cell through the sanitiser.
    static func table(_ header: [String], _ rows: [[String]], empty: String) -> [String] {
        guard !rows.isEmpty else { return [empty] }
        let cells = rows.map { $0.map { String(show($0).prefix(60)) } }
        var widths = header.map(\.count)
        for row in cells { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ row: [String]) -> String {
            row.enumerated().map { i, cell in
                i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }
            .joined(separator: "  ")
            // An empty last cell leaves no spaces at the end of the line.
            .replacingOccurrences(of: " +$", with: "", options: .regularExpression)
        }
        return [line(header)] + cells.map(line)
    }

    /// A file's bytes, at most 64 MiB; one line when it cannot be read.
    static func read(_ path: String) throws(ServerError) -> Data {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw ServerError.notFound("cannot read '\(path)': no such file")
        }
        if let size = attributes[.size] as? Int, size > 64 << 20 {
            throw ServerError.tooLarge("'\(path)' is over 64 MiB")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ServerError.badRequest("cannot read '\(path)'")
        }
        return data
    }
}
