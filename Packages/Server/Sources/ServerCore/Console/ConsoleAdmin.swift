import FieldTypes
import Foundation
import Models
import ServerStore

/// The administration pages of the `admin` role: sites and areas,
/// assignments, templates and people, each change made by the same
/// `Administration` as `jqc-server admin` and the management API.
extension ConsoleRoutes {
    /// The sections of the administration, by path and title.
    static let adminSections: [(path: String, title: String)] = [
        ("sites", "Sites and areas"), ("assignments", "Assignments"), ("templates", "Forms"),
        ("schedules", "Schedules"),
        ("people", "People"),
    ]

    /// `GET /console/admin`.
    func consoleAdminHome(_ input: ConsoleInput) throws(ServerError) -> ConsolePage {
        _ = try input.requireAdmin()
        let events = try administration.events(limit: 20, before: nil)
        var html =
            "<ul class=\"sections\">"
            + Self.adminSections.map {
                "<li><a href=\"\(Self.consolePath)/admin/\($0.path)\">\(HTML.escape($0.title))</a></li>"
            }.joined() + "</ul>\n"
        html += "<section><h2>Latest changes</h2><ol class=\"events\">"
        for event in events.reversed() {
            html +=
                "<li><span class=\"when\">\(ConsoleLayout.time(event.at))</span> \(Self.actor(event)) "
                + "\(HTML.escape(event.kind)) <code>\(HTML.escape(event.subject))</code></li>"
        }
        html += "</ol></section>\n"
        return ConsolePage(title: "Administration", body: html, viewer: input.viewer)
    }

    /// Who made a change, by what cannot be changed: the command line as
    /// itself (no user name holds a space), a user by user name with the
    /// display name they had beside it.
    static func actor(_ event: AdminEvent) -> String {
        let login = HTML.escape(event.actorUsername ?? "?")
        if event.byCommandLine { return "<strong class=\"cli\">command line</strong> (\(login))" }
        return "<strong>\(event.actorUsername.map(HTML.escape) ?? HTML.escape(event.actorID))</strong> "
            + "(\(HTML.escape(event.actorName)))"
    }

    /// `GET /console/admin/{section}`.
    func consoleAdminSection(_ input: ConsoleInput, _ section: String, status: Int = 200, error: String? = nil)
        throws(ServerError) -> ConsolePage
    {
        _ = try input.requireAdmin()
        guard let viewer = input.viewer, let title = Self.adminSections.first(where: { $0.path == section })?.title
        else {
            throw ServerError.notFound("there is no administration page \(OneLine.quote(section, limit: 40))")
        }
        let form = ConsoleAdminForms(csrf: viewer.csrf)
        let body: String
        switch section {
        case "sites": body = form.sites(try administration.facilities(), try administration.areas(facilityID: nil))
        case "assignments":
            body = form.assignments(
                try administration.assignments(inspector: nil), users: try administration.users(),
                templates: try administration.templates(), facilities: try administration.facilities(),
                areas: try administration.areas(facilityID: nil))
        case "templates": body = form.templates(try administration.templates())
        case "schedules": body = try scheduleSection(form)
        default: body = form.people(try administration.usersAndFacilities(), sites: try administration.facilities())
        }
        return ConsolePage(
            status: status, title: title,
            body: ConsoleLayout.notice(Self.noticeText(input)) + ConsoleLayout.error(error) + body, viewer: viewer)
    }

    /// `POST /console/admin/{action}`: one change, then back to its section
    /// with a notice; refused, the section again with why.
    func consoleAdminAction(_ input: ConsoleInput, action: String) throws(ServerError) -> ConsoleReply {
        let caller = try input.requireAdmin()
        try input.requireCSRF()
        let actor = AdminActor(id: caller.user.id, name: caller.user.displayName)
        let admin = administration
        let section = try Self.adminSection(of: action)
        do throws(ServerError) {
            switch section {
            case "sites": try Self.changeSites(action, input.form, admin, by: actor)
            case "assignments": try Self.changeAssignments(action, input.form, admin, by: actor)
            case "templates": try Self.changeTemplates(action, input.form, admin, by: actor)
            case "schedules": try changeSchedules(action, input.form, admin, by: actor)
            default: try Self.changePeople(action, input.form, admin, by: actor)
            }
        } catch {
            guard error.status < 500 else { throw error }
            return .page(
                try consoleAdminSection(
                    input, section, status: error.status,
                    error: error.message.prefix(1).uppercased() + error.message.dropFirst() + "."))
        }
        return .redirect("\(Self.consolePath)/admin/\(section)?notice=saved")
    }

    /// The section an administration action belongs to (and returns to); 404 for an action there is not.
    private static func adminSection(of action: String) throws(ServerError) -> String {
        switch action {
        case "facility-add", "facility-change", "facility-retire", "facility-restore", "area-add", "area-change",
            "area-retire", "area-restore":
            return "sites"
        case "assignment-create", "assignment-cancel": return "assignments"
        case "template-publish", "template-retire", "template-restore": return "templates"
        case "schedule-add", "schedule-change", "schedule-pause", "schedule-resume", "schedule-remove":
            return "schedules"
        case "user-add", "user-change", "user-disable", "user-enable", "user-password", "user-facilities":
            return "people"
        default: throw ServerError.notFound("there is no administration action \(OneLine.quote(action, limit: 40))")
        }
    }

    /// Makes one change of the sites section: a site or an area added, changed, retired or restored.
    private static func changeSites(
        _ action: String, _ form: ConsoleForm, _ admin: Administration, by actor: AdminActor
    ) throws(ServerError) {
        switch action {
        case "facility-add":
            _ = try admin.addFacility(
                Facility(
                    id: try form.need("id", "the site's id"), name: try form.need("name", "the site's name"),
                    address: form.text("address") ?? "", projectName: form.text("project_name") ?? ""), by: actor)
        case "facility-change":
            _ = try admin.changeFacility(
                id: try form.need("id", "the site's id"),
                .init(
                    name: form.text("name"),
                    address: form.raw("address").map { $0.trimmingCharacters(in: .whitespaces) },
                    projectName: form.raw("project_name").map { $0.trimmingCharacters(in: .whitespaces) }),
                by: actor)
        case "facility-retire", "facility-restore":
            _ = try admin.setFacilityRetired(
                id: try form.need("id", "the site's id"), retired: action == "facility-retire", by: actor)
        case "area-add":
            _ = try admin.addArea(
                Area(
                    id: try form.need("id", "the area's id"),
                    facilityID: try form.need("facility_id", "the area's site"),
                    name: try form.need("name", "the area's name"), areaType: form.text("area_type") ?? ""), by: actor)
        case "area-change":
            _ = try admin.changeArea(
                id: try form.need("id", "the area's id"),
                .init(
                    name: form.text("name"),
                    areaType: form.raw("area_type").map { $0.trimmingCharacters(in: .whitespaces) }),
                by: actor)
        default:
            _ = try admin.setAreaRetired(
                id: try form.need("id", "the area's id"), retired: action == "area-retire", by: actor)
        }
    }

    /// Makes one change of the assignments section: an assignment created or cancelled.
    private static func changeAssignments(
        _ action: String, _ form: ConsoleForm, _ admin: Administration, by actor: AdminActor
    ) throws(ServerError) {
        switch action {
        case "assignment-create":
            _ = try admin.createAssignment(
                .init(
                    id: form.text("id"), inspector: try form.need("inspector", "the inspector"),
                    templateID: try form.need("template_id", "the form"),
                    facilityID: try form.need("facility_id", "the site"),
                    areaID: form.text("area_id"), due: form.text("due")), by: actor)
        default:
            _ = try admin.cancelAssignment(id: try form.need("id", "the assignment's id"), by: actor)
        }
    }

    /// Makes one change of the forms section: a form published from its JSON, retired or restored.
    private static func changeTemplates(
        _ action: String, _ form: ConsoleForm, _ admin: Administration, by actor: AdminActor
    ) throws(ServerError) {
        switch action {
        case "template-publish":
            let text = try form.need("document", "the form's JSON")
            guard let document = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                throw ServerError.badRequest("the form's definition is not valid JSON")
            }
            _ = try admin.publishTemplates(document, source: "the form", by: actor)
        default:
            _ = try admin.setTemplateRetired(
                id: try form.need("id", "the form's id"), retired: action == "template-retire", by: actor)
        }
    }

    /// Makes one change of the people section: a person added, changed, disabled or enabled, or a password set.
    private static func changePeople(
        _ action: String, _ form: ConsoleForm, _ admin: Administration, by actor: AdminActor
    ) throws(ServerError) {
        switch action {
        case "user-add":
            guard let role = UserRole(rawValue: try form.need("role", "a role")) else {
                throw ServerError.badRequest("choose inspector, supervisor, admin, crew or client")
            }
            let sites = form.sites
            if role == .client && sites.isEmpty {
                throw ServerError.badRequest("tick the sites a client sees: a client sees nothing else")
            }
            if role != .client && !sites.isEmpty {
                throw ServerError.badRequest("only a client is limited to sites; untick them for \(role.withArticle)")
            }
            _ = try admin.addUser(
                username: try form.need("username", "a user name"), password: form.raw("password") ?? "", role: role,
                displayName: form.text("display_name"), facilities: sites, by: actor)
        case "user-facilities":
            var edit = Administration.UserChange()
            edit.facilities = form.sites
            _ = try admin.updateUser(try form.need("id", "the person"), edit, byID: true, by: actor)
        case "user-change":
            let role = try form.text("role").map { (text) throws(ServerError) -> UserRole in
                guard let role = UserRole(rawValue: text) else {
                    throw ServerError.badRequest("choose inspector, supervisor, admin, crew or client")
                }
                return role
            }
            _ = try admin.changeUser(
                try form.need("id", "the person"), role: role, displayName: form.text("display_name"), byID: true,
                by: actor)
        case "user-disable", "user-enable":
            _ = try admin.setUserDisabled(
                try form.need("id", "the person"), disabled: action == "user-disable", byID: true, by: actor)
        default:
            _ = try admin.setPassword(
                try form.need("id", "the person"), password: form.raw("password") ?? "", byID: true, by: actor)
        }
    }
}

extension ConsoleForm {
    /// The sites ticked on the people page, in order.
    fileprivate var sites: [String] {
        fields.filter { $0.value == "on" && $0.key.hasPrefix(ConsoleAdminForms.sitePrefix) }
            .map { String($0.key.dropFirst(ConsoleAdminForms.sitePrefix.count)) }.sorted()
    }

    /// One field, trimmed; absent or blank, 400 asking for `what`.
    func need(_ name: String, _ what: String) throws(ServerError) -> String {
        guard let value = text(name) else { throw ServerError.badRequest("give \(what)") }
        return value
    }
}
