import Foundation
import Models
import ServerStore

/// The HTML of the administration sections: a table of what exists, each
/// row with its own small forms, and a form to add one. Every form posts to
/// `/console/admin/{action}` with the session's CSRF token.
struct ConsoleAdminForms {
    let csrf: String

    /// A form of one action with these hidden fields and visible inputs.
    func form(
        _ action: String, hidden: [(String, String)] = [], _ inputs: String = "", button: String, cls: String = "inline"
    ) -> String {
        "<form class=\"\(cls)\" method=\"post\" action=\"\(ConsoleRoutes.consolePath)/admin/\(action)\">\(ConsoleLayout.csrfField(csrf))"
            + hidden.map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(HTML.attribute($0.1))\">" }.joined()
            + inputs + "<button type=\"submit\">\(HTML.escape(button))</button></form>"
    }

    func input(
        _ name: String, _ label: String, value: String = "", required: Bool = false, type: String = "text"
    ) -> String {
        "<label>\(HTML.escape(label)) <input type=\"\(type)\" name=\"\(name)\" value=\"\(HTML.attribute(value))\"\(required ? " required" : "")></label>"
    }

    private func retired(_ at: String?) -> String {
        at.map { " <span class=\"muted\">(retired \(ConsoleLayout.time($0)))</span>" } ?? ""
    }

    // MARK: Sites and areas

    func sites(_ facilities: [ManagedFacility], _ areas: [ManagedArea]) -> String {
        var html =
            "<section><h2>Add a site</h2>"
            + form(
                "facility-add",
                input("id", "Id", required: true) + input("name", "Name", required: true)
                    + input("address", "Address") + input("project_name", "Project"), button: "Add the site",
                cls: "card") + "</section>\n"
        html +=
            "<section><h2>Sites</h2><table id=\"admin-sites\"><thead><tr><th>Id</th><th>Site</th><th>Areas</th><th></th></tr></thead><tbody>\n"
        for site in facilities {
            let id = site.facility.id
            let change = form(
                "facility-change", hidden: [("id", id)],
                input("name", "Name", value: site.facility.name)
                    + input("address", "Address", value: site.facility.address)
                    + input("project_name", "Project", value: site.facility.projectName),
                button: "Save")
            let toggle =
                site.retiredAt == nil
                ? form("facility-retire", hidden: [("id", id)], button: "Retire")
                : form("facility-restore", hidden: [("id", id)], button: "Restore")
            var areaList = "<ul class=\"areas\">"
            for area in areas where area.area.facilityID == id {
                let areaToggle =
                    area.retiredAt == nil
                    ? form("area-retire", hidden: [("id", area.area.id)], button: "Retire")
                    : form("area-restore", hidden: [("id", area.area.id)], button: "Restore")
                areaList +=
                    "<li><code>\(HTML.escape(area.area.id))</code> "
                    + form(
                        "area-change", hidden: [("id", area.area.id)],
                        input("name", "Name", value: area.area.name)
                            + input("area_type", "Type", value: area.area.areaType), button: "Save")
                    + areaToggle + retired(area.retiredAt) + "</li>"
            }
            areaList +=
                "<li>"
                + form(
                    "area-add", hidden: [("facility_id", id)],
                    input("id", "New area id", required: true)
                        + input("name", "Name", required: true) + input("area_type", "Type"), button: "Add an area")
                + "</li></ul>"
            html +=
                "<tr><td><code>\(HTML.escape(id))</code>\(retired(site.retiredAt))</td><td>\(change)</td><td>\(areaList)</td><td>\(toggle)</td></tr>\n"
        }
        return html + "</tbody></table></section>\n"
    }

    // MARK: Assignments

    func assignments(
        _ list: [ManagedAssignment], users: [StoredUser], templates: [ManagedTemplate], facilities: [ManagedFacility],
        areas: [ManagedArea]
    ) -> String {
        let inspectors = users.filter { $0.role == .inspector && !$0.isDisabled }
        let names = Dictionary(users.map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
        let templateNames = ConsoleRoutes.templateNames(templates.map(\.template))
        let siteNames = Dictionary(
            facilities.map { ($0.facility.id, $0.facility.name) }, uniquingKeysWith: { a, _ in a })
        let create =
            "<label>Inspector <select name=\"inspector\" required>"
            + HTML.options(inspectors.map { ($0.id, $0.displayName) }, selected: "")
            + "</select></label><label>Form <select name=\"template_id\" required>"
            + HTML.options(
                templates.filter { $0.retiredAt == nil }.map { ($0.template.id, $0.template.name) }, selected: "")
            + "</select></label><label>Site <select name=\"facility_id\" required>"
            + HTML.options(
                facilities.filter { $0.retiredAt == nil }.map { ($0.facility.id, $0.facility.name) }, selected: "")
            + "</select></label>" + Self.areaChoice(facilities, areas) + input("due", "Due", type: "date")
            + input("id", "Id (optional)")
        var html =
            "<section><h2>Give work to an inspector</h2>"
            + form("assignment-create", create, button: "Create the assignment", cls: "card")
            + "</section>\n<section><h2>Assignments</h2><table id=\"admin-assignments\"><thead><tr><th>Id</th><th>Inspector</th><th>Form</th>"
            + "<th>Site</th><th>Due</th><th>Status</th><th></th></tr></thead><tbody>\n"
        for record in list {
            let a = record.assignment
            let status = record.cancelledAt != nil ? "cancelled" : a.status.rawValue
            html +=
                "<tr><td><code>\(HTML.escape(a.id))</code></td><td>\(HTML.escape(names[record.inspectorID] ?? record.inspectorID))</td>"
                + "<td>\(HTML.escape(templateNames[a.templateID] ?? a.templateID))</td>"
                + "<td>\(HTML.escape(siteNames[a.facilityID] ?? a.facilityID))\(a.areaID.map { " · <code>\(HTML.escape($0))</code>" } ?? "")</td>"
                + "<td>\(ConsoleLayout.time(a.dueAt))</td><td>\(HTML.escape(status))</td>"
                + "<td>\(a.status == .open ? form("assignment-cancel", hidden: [("id", a.id)], button: "Cancel") : "")</td></tr>\n"
        }
        return html + "</tbody></table></section>\n"
    }

    /// The assignment's area, chosen among the sites' areas (each under its
    /// site's name), or none; the server refuses an area of another site.
    static func areaChoice(_ facilities: [ManagedFacility], _ areas: [ManagedArea]) -> String {
        var html = "<label>Area <select name=\"area_id\"><option value=\"\">no particular area</option>"
        for site in facilities where site.retiredAt == nil {
            let own = areas.filter { $0.area.facilityID == site.facility.id && $0.retiredAt == nil }
            guard !own.isEmpty else { continue }
            html +=
                "<optgroup label=\"\(HTML.attribute(site.facility.name))\" data-facility=\"\(HTML.attribute(site.facility.id))\">"
                + HTML.options(own.map { ($0.area.id, $0.area.name) }, selected: "") + "</optgroup>"
        }
        return html + "</select></label>"
    }

    // MARK: Templates

    func templates(_ list: [ManagedTemplate]) -> String {
        var html =
            "<section><h2>Publish a form</h2>"
            + form(
                "template-publish",
                "<label>The form's definition, as JSON (one template, or <code>{\"templates\": [...]}</code>)"
                    + "<textarea name=\"document\" rows=\"10\" required spellcheck=\"false\"></textarea></label>"
                    + "<p class=\"muted\">It is checked as <code>jqc templates lint</code> checks it; a changed form becomes its next version, an unchanged one publishes nothing.</p>",
                button: "Publish", cls: "card")
            + "</section>\n<section><h2>Forms</h2><table id=\"admin-templates\"><thead><tr><th>Id</th><th>Name</th><th>Versions</th><th>Fields</th><th></th></tr></thead><tbody>\n"
        for record in list {
            let id = record.template.id
            let toggle =
                record.retiredAt == nil
                ? form("template-retire", hidden: [("id", id)], button: "Retire")
                : form("template-restore", hidden: [("id", id)], button: "Restore")
            html +=
                "<tr><td><code>\(HTML.escape(id))</code>\(retired(record.retiredAt))</td><td>\(HTML.escape(record.template.name))</td>"
                + "<td>\(record.versions.map(String.init).joined(separator: ", ")) (current \(record.template.version))</td>"
                + "<td class=\"num\">\(record.template.schema.fields.count)</td><td>\(toggle)</td></tr>\n"
        }
        return html + "</tbody></table></section>\n"
    }

    // MARK: People

    /// The people, each client with the sites they see; the form to add one.
    func people(_ users: [(user: StoredUser, facilities: [String]?)], sites: [ManagedFacility]) -> String {
        let roles = UserRole.allCases.map { ($0.rawValue, $0.rawValue) }
        let open = sites.filter { $0.retiredAt == nil }
        let add =
            input("username", "User name", required: true) + input("display_name", "Name")
            + "<label>Role <select name=\"role\">" + HTML.options(roles, selected: UserRole.inspector.rawValue)
            + "</select></label>"
            + input("password", "Password (at least 10 characters)", required: true, type: "password")
            + Self.siteChoice(open, chosen: [], legend: "Sites a client sees (clients only)")
        var html =
            "<section><h2>Add a person</h2>" + form("user-add", add, button: "Add", cls: "card") + "</section>\n"
            + "<section><h2>People</h2><table id=\"admin-people\"><thead><tr><th>User name</th><th>Name and role</th><th>Password</th><th></th></tr></thead><tbody>\n"
        for (user, facilities) in users {
            var change = form(
                "user-change", hidden: [("id", user.id)],
                input("display_name", "Name", value: user.displayName)
                    + "<label>Role <select name=\"role\">" + HTML.options(roles, selected: user.role.rawValue)
                    + "</select></label>", button: "Save")
            if let facilities {
                change += form(
                    "user-facilities", hidden: [("id", user.id)],
                    Self.siteChoice(
                        sites.filter { $0.retiredAt == nil || facilities.contains($0.facility.id) },
                        chosen: Set(facilities), legend: "Sees"), button: "Save sites")
            }
            let password = form(
                "user-password", hidden: [("id", user.id)],
                input("password", "New password", required: true, type: "password"),
                button: "Set")
            let toggle =
                user.isDisabled
                ? form("user-enable", hidden: [("id", user.id)], button: "Enable")
                : form("user-disable", hidden: [("id", user.id)], button: "Disable")
            html +=
                "<tr><td><code>\(HTML.escape(user.username))</code>\(user.isDisabled ? " <span class=\"muted\">(disabled)</span>" : "")</td>"
                + "<td>\(change)</td><td>\(password)</td><td>\(toggle)</td></tr>\n"
        }
        return html + "</tbody></table></section>\n"
    }

    /// A box for each site, named `facility:ID`, ticked when `chosen` holds it.
    static func siteChoice(_ sites: [ManagedFacility], chosen: Set<String>, legend: String) -> String {
        "<fieldset class=\"sites\"><legend>\(HTML.escape(legend))</legend>"
            + sites.map { site in
                let id = site.facility.id
                return
                    "<label><input type=\"checkbox\" name=\"\(HTML.attribute(ConsoleAdminForms.sitePrefix + id))\" value=\"on\"\(chosen.contains(id) ? " checked" : "")> \(HTML.escape(site.facility.name))</label>"
            }.joined() + "</fieldset>"
    }

    /// The prefix of a site's box on the people page.
    static let sitePrefix = "facility:"
}
