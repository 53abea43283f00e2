import Foundation
import Models
import ServerStore

/// The schedules section: each schedule in words with its next windows, the
/// forms to change, pause, resume or remove it, and the form to add one.
extension ConsoleAdminForms {
    /// What the schedules section shows beside the schedules themselves.
    struct ScheduleChoices {
        var users: [StoredUser]
        var templates: [ManagedTemplate]
        var facilities: [ManagedFacility]
        var areas: [ManagedArea]
        /// The organisation's zone, the one a schedule without its own is read in.
        var zone: String
        var now: Date
    }

    func schedules(_ list: [StoredSchedule], _ choices: ScheduleChoices) -> String {
        let open = choices.facilities.filter { $0.retiredAt == nil }
        let add =
            "<label>Form <select name=\"template_id\" required>"
            + HTML.options(
                choices.templates.filter { $0.retiredAt == nil }.map { ($0.template.id, $0.template.name) },
                selected: "")
            + "</select></label><label>Site <select name=\"facility_id\" required>"
            + HTML.options(open.map { ($0.facility.id, $0.facility.name) }, selected: "") + "</select></label>"
            + Self.areaBoxes(open, choices.areas, chosen: [])
            + input("inspectors", "Inspectors (user names, in turn, separated by commas)", required: true)
            + input("rrule", "Repeats (an iCalendar rule)", required: true)
            + input("window", "Window (HH:MM-HH:MM)", required: true)
            + input("start", "First day", required: true, type: "date") + input("end", "Last day", type: "date")
            + input("zone", "Zone (\(choices.zone) when blank)") + input("id", "Id (optional)")
            + "<p class=\"muted\">Repeats: <code>FREQ=DAILY</code>, <code>FREQ=WEEKLY;BYDAY=MO,WE,FR</code>, "
            + "<code>FREQ=MONTHLY;BYDAY=2TU</code>. Each visit is an assignment due at its window's end; with several "
            + "inspectors each visit goes to the next in turn.</p>"
        var html =
            "<section><h2>Add a schedule</h2>" + form("schedule-add", add, button: "Add the schedule", cls: "card")
            + "</section>\n<section><h2>Schedules</h2><table id=\"admin-schedules\"><thead><tr><th>Id</th>"
            + "<th>What and where</th><th>When</th><th>Change</th><th></th></tr></thead><tbody>\n"
        let names = ScheduleNames(choices)
        for schedule in list { html += row(schedule, choices, names) }
        return html + "</tbody></table></section>\n"
    }

    /// One schedule's row.
    private func row(_ schedule: StoredSchedule, _ choices: ScheduleChoices, _ names: ScheduleNames) -> String {
        let id = schedule.id
        let words = ScheduleWords(schedule, after: choices.now)
        let template = names.templates[schedule.templateID]
        let site = names.sites[schedule.facilityID]
        let areas =
            schedule.areaIDs.isEmpty
            ? "the whole site" : schedule.areaIDs.map { HTML.escape(names.areas[$0] ?? $0) }.joined(separator: ", ")
        let inspectors = schedule.inspectorIDs.map { names.logins[$0] ?? $0 }
        let what =
            "\(HTML.escape(template ?? schedule.templateID)) at \(HTML.escape(site ?? schedule.facilityID)): \(areas)"
            + "<br><span class=\"muted\">by \(HTML.escape(inspectors.joined(separator: ", "))), in turn</span>"
        var when =
            "\(HTML.escape(words.rule)), \(HTML.escape(schedule.window)) <span class=\"muted\">"
            + "(\(HTML.escape(schedule.zone)); from \(HTML.escape(schedule.startDate))"
            + "\(schedule.endDate.map { " to \(HTML.escape($0))" } ?? ""))</span>"
        if let paused = schedule.pausedAt {
            when += "<br><strong>Paused</strong> <span class=\"muted\">since \(ConsoleLayout.time(paused))</span>"
        } else if !words.next.isEmpty {
            when += "<ul class=\"next\">" + words.next.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"
        }
        let change = form(
            "schedule-change", hidden: [("id", id)],
            input("inspectors", "Inspectors", value: inspectors.joined(separator: ", "))
                + input("rrule", "Repeats", value: schedule.rule) + input("window", "Window", value: schedule.window)
                + input("end", "Last day (blank: none)", value: schedule.endDate ?? "", type: "date"),
            button: "Save")
        let toggle =
            schedule.pausedAt == nil
            ? form("schedule-pause", hidden: [("id", id)], button: "Pause")
            : form("schedule-resume", hidden: [("id", id)], button: "Resume")
        return
            "<tr data-schedule=\"\(HTML.attribute(id))\"><td><code>\(HTML.escape(id))</code> "
            + "<span class=\"muted\">v\(schedule.version)</span></td><td>\(what)</td><td>\(when)</td><td>\(change)</td>"
            + "<td>\(toggle)\(form("schedule-remove", hidden: [("id", id)], button: "Remove"))</td></tr>\n"
    }

    /// The names a schedule's ids stand for, looked up once a page.
    private struct ScheduleNames {
        var logins: [String: String]
        var templates: [String: String]
        var sites: [String: String]
        var areas: [String: String]

        init(_ choices: ScheduleChoices) {
            func names(_ pairs: [(String, String)]) -> [String: String] {
                Dictionary(pairs, uniquingKeysWith: { first, _ in first })
            }
            logins = names(choices.users.map { ($0.id, $0.username) })
            templates = names(choices.templates.map { ($0.template.id, $0.template.name) })
            sites = names(choices.facilities.map { ($0.facility.id, $0.facility.name) })
            areas = names(choices.areas.map { ($0.area.id, $0.area.name) })
        }
    }

    /// A box for each area of each open site, named `area:ID`, under its site's name.
    static func areaBoxes(_ sites: [ManagedFacility], _ areas: [ManagedArea], chosen: Set<String>) -> String {
        var html = "<fieldset class=\"areas\"><legend>Areas (none ticked: the whole site)</legend>"
        for site in sites {
            let own = areas.filter { $0.area.facilityID == site.facility.id && $0.retiredAt == nil }
            guard !own.isEmpty else { continue }
            html += "<p><strong>\(HTML.escape(site.facility.name))</strong> "
            html += own.map { area in
                let name = HTML.attribute(areaPrefix + area.area.id)
                let ticked = chosen.contains(area.area.id) ? " checked" : ""
                return "<label><input type=\"checkbox\" name=\"\(name)\" value=\"on\"\(ticked)> "
                    + "\(HTML.escape(area.area.name))</label>"
            }.joined(separator: " ")
            html += "</p>"
        }
        return html + "</fieldset>"
    }

    /// The prefix of an area's box on the schedules page.
    static let areaPrefix = "area:"
}
