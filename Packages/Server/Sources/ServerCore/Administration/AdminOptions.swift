import ArgumentParsing
import Models

/// The arguments and options of the admin commands (`AdminCommands`), each
/// declared once with its help; the commands read them back through these.
extension AdminCommands {
    /// Facilities and areas.
    enum Site {
        static let newFacility = Argument("ID", help: "the organisation's own id for the site, e.g. F-100")
        static let facility = Argument("ID", help: "the facility")
        static let name = Option("name", "NAME", help: "its name (required)")
        static let address = Option("address", "TEXT", help: "its address")
        static let project = Option("project", "NAME", help: "the project or portfolio it belongs to")
        static let newName = Option("name", "NAME", help: "a new name")
        static let newAddress = Option("address", "TEXT", help: "a new address")
        static let newProject = Option("project", "NAME", help: "a new project")
        static let restoreFacility = Flag("restore", help: "bring a retired facility back")
        static let facilitiesFile = Argument(
            "FILE",
            help: "CSV with columns id,name,address,project_name; or JSON {\"facilities\": [...], \"areas\": [...]}")
        static let onlyFacility = Option("facility", "ID", help: "only this facility's areas")
        static let newArea = Argument("ID", help: "the organisation's own id for the area, e.g. A-101")
        static let area = Argument("ID", help: "the area")
        static let areaFacility = Option("facility", "ID", help: "its facility (required)")
        static let areaType = Option("type", "TYPE", help: "its kind: washroom, lobby, kitchen, ...")
        static let newAreaType = Option("type", "TYPE", help: "a new type")
        static let restoreArea = Flag("restore", help: "bring a retired area back")
        static let areasFile = Argument(
            "FILE", help: "CSV with columns id,facility_id,name,area_type; or JSON {\"areas\": [...]}")
    }

    /// Assignments.
    enum Work {
        static let onlyInspector = Option("inspector", "USER", help: "only this inspector's (user name or id)")
        static let inspector = Option("inspector", "USER", help: "the inspector (user name or id; required)")
        static let template = Option("template", "ID", help: "the template (required)")
        static let facility = Option("facility", "ID", help: "the facility (required)")
        static let area = Option("area", "ID", help: "an area of that facility")
        static let due = Option(
            "due", "DATE", help: "due by: YYYY-MM-DD (the end of that day, UTC) or an RFC 3339 time")
        static let id = Option("id", "ID", help: "the organisation's own id for it (default: one is made)")
        static let assignment = Argument("ID", help: "the assignment")
        static let otherTemplate = Option("template", "ID", help: "another template")
        static let otherFacility = Option("facility", "ID", help: "another facility")
        static let otherArea = Option("area", "ID", help: "another area ('' for none)")
        static let otherDue = Option("due", "DATE", help: "another due date ('' for none)")
        static let assignmentsFile = Argument(
            "FILE",
            help:
                "CSV with columns id,inspector,template_id,facility_id,area_id,due_at; or JSON {\"assignments\": [...]}"
        )
    }

    /// Templates.
    enum Forms {
        static let templatesFile = Argument(
            "FILE", help: "a template object, or {\"templates\": [...]} as GET /templates returns")
        static let template = Argument("ID", help: "the template")
        static let restoreTemplate = Flag("restore", help: "bring a retired template back")
    }

    /// Users.
    enum People {
        /// A role, by name; a bad one is refused as the admin commands refuse bad input (exit 4).
        static let roles = Conversion<UserRole>.choice(otherwise: { word, label in
            "\(label) must be inspector, supervisor, admin, crew or client, not '\(word)'"
        })
        static let newUsername = Argument("USERNAME", help: "the user name to sign in with")
        static let role = Option(
            "role", "ROLE", default: UserRole.inspector, help: "inspector, supervisor, admin, crew or client", as: roles
        )
        static let displayName = Option("display-name", "NAME", help: "the name shown in history and the roll-up")
        static let user = Argument("USER", help: "the user name or id")
        static let newRole = Option("role", "ROLE", help: "inspector, supervisor, admin, crew or client", as: roles)
        static let newDisplayName = Option("display-name", "NAME", help: "a new display name")
        static let enable = Flag("enable", help: "enable a disabled user again")
        static let passwordUser = Argument("USERNAME", help: "the user whose password changes")
    }
}
