import FieldTypes
import FormLogic
import Foundation
import Models
import Scoring
import ServerStore

/// Sites and team: per facility the trend of recent scores and its open
/// follow-ups, per inspector the roll-up. Supervisors and admins only.
extension ConsoleRoutes {
    /// How many recent inspections a site's chart shows.
    static let siteChartLength = 30

    /// `GET /console/sites`.
    func consoleSites(_ input: ConsoleInput) throws(ServerError) -> ConsolePage {
        _ = try input.requireSupervisor()
        let rows = try store.read { session -> [(ManagedFacility, Int, Int, Double?)] in
            try session.managedFacilities().map { (site) throws(ServerError) in
                let all = HistoryQuery(facilityID: site.facility.id)
                var open = all
                open.openFollowUps = true
                let scores = try session.reportsPage(all, limit: Self.siteChartLength, offset: 0).compactMap(\.0.score)
                return (
                    site, try session.reviewStateCounts(all).values.reduce(0, +),
                    try session.reviewStateCounts(open).values.reduce(0, +),
                    scores.isEmpty ? nil : scores.reduce(0, +) / Double(scores.count)
                )
            }
        }
        var html =
            "<table id=\"sites\"><thead><tr><th>Site</th><th>Address</th><th class=\"num\">Inspections</th>"
            + "<th class=\"num\">Average of the last \(Self.siteChartLength)</th><th class=\"num\">Open follow-ups</th></tr></thead><tbody>\n"
        for (site, total, followUps, average) in rows {
            let retired = site.retiredAt == nil ? "" : " <span class=\"muted\">(retired)</span>"
            html +=
                "<tr><td><a class=\"site\" href=\"\(Self.consolePath)/sites/\(HTML.percent(site.facility.id))\">\(HTML.escape(site.facility.name))</a>\(retired)</td>"
                + "<td>\(HTML.escape(site.facility.address))</td><td class=\"num\">\(total)</td>"
                + "<td class=\"num\">\(ConsoleLayout.percent(average))</td><td class=\"num\">\(followUps)</td></tr>\n"
        }
        html += "</tbody></table>\n"
        return ConsolePage(title: "Sites", body: html, viewer: input.viewer)
    }

    /// `GET /console/sites/{facility_id}`: the chart of recent scores, the open follow-ups, the latest reports.
    func consoleSite(_ input: ConsoleInput, facilityID: String) throws(ServerError) -> ConsolePage {
        _ = try input.requireSupervisor()
        typealias Page = ([(StoredReport, StoredUser)], Int)
        let found = try store.read {
            session -> (ManagedFacility, Page, Page, [Template], [StoredAction], RollupReport, TimeZone) in
            guard let site = try session.managedFacility(id: facilityID) else {
                throw ServerError.notFound("there is no site \(OneLine.quote(facilityID, limit: 60))")
            }
            var open = HistoryQuery(facilityID: facilityID)
            open.openFollowUps = true
            var unfinished = ActionListQuery()
            unfinished.facilityID = facilityID
            unfinished.unfinishedOnly = true
            return (
                site, try session.history(HistoryQuery(facilityID: facilityID), limit: Self.siteChartLength, offset: 0),
                try session.history(open, limit: 100, offset: 0),
                try templateCache.templates(in: session).values.map(\.template),
                try session.actionList(unfinished, limit: 100, offset: 0),
                try RollupReport.read(by: .item, period: Self.failingWindow(), facilityID: facilityID, in: session),
                try OrganisationZone.current(in: session)
            )
        }
        let (site, recent, followUps, templates, actions, failing, zone) = found
        let templateNames = Self.templateNames(templates)
        let points = recent.0.reversed().compactMap { (row: (StoredReport, StoredUser)) -> ConsoleChart.Point? in
            guard let score = row.0.score, let date = RFC3339.date(row.0.acceptedAt) else { return nil }
            return ConsoleChart.Point(
                label: "\(ConsoleChart.day(date, zone: zone)) \(row.1.displayName)", ratio: score, date: date,
                passed: row.0.passed)
        }
        var html =
            "<p>\(HTML.escape(site.facility.address))\(site.facility.projectName.isEmpty ? "" : " · " + HTML.escape(site.facility.projectName))</p>\n"
        html +=
            "<section><h2>Scores of the last \(points.count) scored inspections</h2>\(ConsoleChart.scores(points, zone: zone))</section>\n"
        html +=
            "<p><a id=\"summary-pdf\" href=\"\(Self.consolePath)/sites/\(HTML.percent(facilityID))/summary\">"
            + "This month's summary (PDF)</a></p>\n"
        html += Self.failingItems(failing, facilityID: facilityID)
        html += try siteCoverage(facilityID: facilityID, zone: zone)
        html += "<section id=\"follow-ups\"><h2>Open follow-ups (\(followUps.1))</h2>"
        if followUps.0.isEmpty {
            html += "<p class=\"muted\">None: every report that asked for a follow-up has been re-inspected.</p>"
        } else {
            html += "<ul>"
            for (report, owner) in followUps.0 {
                let form = HTML.escape(templateNames[report.templateID] ?? report.templateID)
                html += "<li>\(ConsoleLayout.reportLink(report.serverID)) \(form), \(HTML.escape(owner.displayName)), "
                html += "\(ConsoleLayout.time(report.acceptedAt)), \(ConsoleLayout.percent(report.score))</li>"
            }
            html += "</ul>"
        }
        html += "</section>\n" + Self.siteActions(actions, facilityID: facilityID)
        html += "<section><h2>Latest inspections</h2>"
        html +=
            "<p><a href=\"\(HTML.attribute(Self.queueURL(state: "", [("facility", facilityID)])))\">All of this site's reports in the queue</a></p>"
        html +=
            "<table><thead><tr><th>Report</th><th>Completed</th><th>Form</th><th>Inspector</th><th class=\"num\">Score</th><th>Review</th></tr></thead><tbody>"
        for (report, owner) in recent.0 {
            let form = HTML.escape(templateNames[report.templateID] ?? report.templateID)
            html +=
                "<tr><td>\(ConsoleLayout.reportLink(report.serverID))</td><td>\(ConsoleLayout.time(report.acceptedAt))</td>"
            html += "<td>\(form)</td><td>\(HTML.escape(owner.displayName))</td>"
            html +=
                "<td class=\"num\">\(ConsoleLayout.percent(report.score))</td><td>\(ConsoleLayout.stateBadge(report.reviewState))</td></tr>"
        }
        html += "</tbody></table></section>\n"
        return ConsolePage(title: site.facility.name, body: html, viewer: input.viewer)
    }

    /// Template names by id.
    static func templateNames(_ templates: [Template]) -> [String: String] {
        var names: [String: String] = [:]
        for template in templates where names[template.id] == nil { names[template.id] = template.name }
        return names
    }

    /// `GET /console/team`: per inspector, reports completed, follow-ups open, the average score, and their reports by review state.
    func consoleTeam(_ input: ConsoleInput) throws(ServerError) -> ConsolePage {
        _ = try input.requireSupervisor()
        let lines = try store.read { session in
            try session.rollup().map { (line) throws(ServerError) in
                (line, try session.reviewStateCounts(HistoryQuery(inspectorID: line.user.id)))
            }
        }
        var html =
            "<table id=\"team\"><thead><tr><th>Inspector</th><th class=\"num\">Completed</th><th class=\"num\">Open follow-ups</th>"
            + "<th class=\"num\">Average score</th>"
            + ReviewState.allCases.map { "<th class=\"num\">\(HTML.escape(ConsoleLayout.stateName($0)))</th>" }.joined()
            + "</tr></thead><tbody>\n"
        for (line, counts) in lines {
            html +=
                "<tr><td><a href=\"\(HTML.attribute(Self.queueURL(state: "", [("inspector", line.user.id)])))\">\(HTML.escape(line.user.displayName))</a>"
                + "\(line.user.isDisabled ? " <span class=\"muted\">(disabled)</span>" : "")</td>"
                + "<td class=\"num\">\(line.completed)</td><td class=\"num\">\(line.pendingFollowUp)</td>"
                + "<td class=\"num\">\(ConsoleLayout.percent(line.averageScore))</td>"
                + ReviewState.allCases.map { "<td class=\"num\">\(counts[$0] ?? 0)</td>" }.joined() + "</tr>\n"
        }
        html += "</tbody></table>\n"
        return ConsolePage(title: "Team", body: html, viewer: input.viewer)
    }

    /// A site's open and in-progress actions, the soonest due first, each with its age.
    static func siteActions(_ actions: [StoredAction], facilityID: String) -> String {
        var html = "<section id=\"site-actions\"><h2>Open actions (\(actions.count))</h2>"
        guard !actions.isEmpty else {
            return html + "<p class=\"muted\">None: nothing found here is waiting to be fixed.</p></section>\n"
        }
        let now = Date()
        html += "<ul>"
        for action in actions {
            html +=
                "<li>\(ConsoleActionView.link(action)) \(ConsoleActionView.badge(action.state)), "
                + "\(action.severity.rawValue), open \(HTML.escape(ConsoleActionView.age(since: action.createdAt, now: now))), "
                + "due \(ConsoleActionView.due(action, now: now))</li>"
        }
        let all = ConsoleRoutes.consolePath + "/actions" + HTML.query([("facility", facilityID)])
        return html + "</ul><p><a href=\"\(HTML.attribute(all))\">Every action at this site</a></p></section>\n"
    }

    /// The window of a site's items that fail most: the last 90 days.
    static func failingWindow(now: Date = Date()) -> RollupPeriod {
        let from = now.addingTimeInterval(-90 * 86_400)
        return RollupPeriod(
            from: RFC3339.string(from), to: RFC3339.string(now.addingTimeInterval(1)), name: "the last 90 days")
    }

    /// The ten items of a site most often deficient, by form, with a link to the whole roll-up.
    static func failingItems(_ report: RollupReport, facilityID: String) -> String {
        var html = "<section id=\"failing-items\"><h2>Items that fail most (last 90 days)</h2>"
        guard !report.lines.isEmpty else {
            return html + "<p class=\"muted\">No deficiencies in the last 90 days.</p></section>\n"
        }
        html +=
            "<table><thead><tr><th>Form</th><th>Item</th><th class=\"num\">Deficient</th><th class=\"num\">Share</th></tr></thead><tbody>"
        for line in report.lines.prefix(10) {
            html +=
                "<tr><td>\(HTML.escape(line.name))</td><td>\(HTML.escape(line.fieldLabel ?? ""))</td>"
                + "<td class=\"num\">\(line.sums.deficiencies) of \(line.sums.inspections)</td>"
                + "<td class=\"num\">\(ConsoleLayout.percent(line.sums.deficienciesPerInspection))</td></tr>"
        }
        let link = HTML.query([
            ("by", "item"), ("facility", facilityID), ("from", String(report.period.from.prefix(10))),
            ("to", String(report.period.to.prefix(10))),
        ])
        return html + "</tbody></table><p><a href=\"\(consolePath)/rollups\(link)\">Every item</a></p></section>\n"
    }
}
