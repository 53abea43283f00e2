import FieldTypes
import Foundation
import Models
import ServerStore

/// The HTML of a client's pages: their buildings, a building, the form of
/// a request. Every outside string escaped; no internal id but a report's
/// short number.
enum ClientPageView {
    /// "My buildings": one row a building.
    static func buildings(_ rows: [ClientBuildingRow]) -> String {
        guard !rows.isEmpty else {
            return "<p class=\"muted\">No building is shared with you yet; ask the cleaning company.</p>\n"
        }
        var html =
            "<p><a id=\"request-service\" href=\"\(ConsoleRoutes.consolePath)/requests/new\">Request service</a></p>\n"
            + "<table id=\"buildings\"><thead><tr><th>Building</th><th>Latest inspection</th>"
            + "<th class=\"num\">Average, last 30 days</th><th class=\"num\">Pass rate</th>"
            + "<th class=\"num\">Open requests and actions</th></tr></thead><tbody>\n"
        for row in rows {
            let latest =
                row.latest.map { report in
                    "\(ConsoleLayout.reportLink(report.serverID, text: ConsoleLayout.day(report.acceptedAt))) "
                        + "<span class=\"score\(ConsoleLayout.outcomeClass(report.passed))\">\(ConsoleLayout.percent(report.score))\(ConsoleLayout.outcomeWord(report.passed))</span>"
                } ?? "<span class=\"muted\">none yet</span>"
            html +=
                "<tr data-facility=\"\(HTML.attribute(row.facility.id))\">"
                + "<td><a class=\"building\" href=\"\(ConsoleRoutes.consolePath)/buildings/\(HTML.percent(row.facility.id))\">\(HTML.escape(row.facility.name))</a>"
                + "<br><small class=\"muted\">\(HTML.escape(row.facility.address))</small></td>"
                + "<td>\(latest)</td><td class=\"num\">\(ConsoleLayout.percent(row.sums?.averageScore))</td>"
                + "<td class=\"num\">\(ConsoleLayout.percent(row.sums?.passRate))</td><td class=\"num\">\(row.open)</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    /// A building: the trend by date, averages by area over the period, the period's inspections.
    static func building(_ page: ClientBuildingPage) -> String {
        let points = page.trend.compactMap { report -> ConsoleChart.Point? in
            guard let score = report.score, let date = RFC3339.date(report.acceptedAt) else { return nil }
            return ConsoleChart.Point(
                label: ConsoleChart.day(date, zone: page.zone), ratio: score, date: date, passed: report.passed)
        }
        var html =
            "<p>\(HTML.escape(page.facility.address))</p>\n"
            + "<section><h2>Scores of the latest inspections</h2>\(ConsoleChart.scores(points, zone: page.zone))</section>\n"
        html += periodForm(page)
        let month = RollupPeriod.isMonth(page.period.name) ? "?month=\(page.period.name)" : ""
        html +=
            "<p><a id=\"summary-pdf\" href=\"\(ConsoleRoutes.consolePath)/buildings/\(HTML.percent(page.facility.id))/summary\(month)\">"
            + "Download the month's summary (PDF)</a></p>\n"
        html += areaTable(page)
        html += inspections(page)
        return html
    }

    private static func periodForm(_ page: ClientBuildingPage) -> String {
        "<form id=\"period\" method=\"get\" action=\"\(ConsoleRoutes.consolePath)/buildings/\(HTML.percent(page.facility.id))\">"
            + "<label>Month <input type=\"month\" name=\"month\" value=\"\(HTML.attribute(page.period.name.count == 7 ? page.period.name : ""))\"></label>"
            + "<button type=\"submit\">Show</button> <span class=\"muted\">\(HTML.escape(page.period.name)), days in \(HTML.escape(OrganisationZone.name(page.zone)))</span></form>\n"
    }

    private static func areaTable(_ page: ClientBuildingPage) -> String {
        let names = Dictionary(page.areaNames.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        var html = "<section id=\"areas\"><h2>By area</h2>"
        guard !page.areas.isEmpty else {
            return html + "<p class=\"muted\">No inspections in this period.</p></section>\n"
        }
        html +=
            "<table><thead><tr><th>Area</th><th class=\"num\">Inspections</th><th class=\"num\">Average score</th>"
            + "<th class=\"num\">Pass rate</th></tr></thead><tbody>"
        for sums in page.areas.sorted(by: { (names[$0.key] ?? $0.key) < (names[$1.key] ?? $1.key) }) {
            html +=
                "<tr><td>\(HTML.escape(names[sums.key] ?? (sums.key.isEmpty ? "(no area)" : "")))</td>"
                + "<td class=\"num\">\(sums.inspections)</td><td class=\"num\">\(ConsoleLayout.percent(sums.averageScore))</td>"
                + "<td class=\"num\">\(ConsoleLayout.percent(sums.passRate))</td></tr>"
        }
        return html + "</tbody></table></section>\n"
    }

    private static func inspections(_ page: ClientBuildingPage) -> String {
        let forms = Dictionary(page.templates.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        let names = Dictionary(page.areaNames.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        var html = "<section id=\"inspections\"><h2>Inspections</h2>"
        guard !page.reports.isEmpty else { return html + "<p class=\"muted\">None in this period.</p></section>\n" }
        html +=
            "<table><thead><tr><th>Report</th><th>Day</th><th>Area</th><th>Form</th><th class=\"num\">Score</th></tr></thead><tbody>"
        for report in page.reports {
            html +=
                "<tr class=\"report\" data-server-id=\"\(HTML.attribute(report.serverID))\">"
                + "<td>\(ConsoleLayout.reportLink(report.serverID, text: ConsoleLayout.shortID(report.serverID)))</td>"
                + "<td>\(ConsoleLayout.day(report.acceptedAt))</td>"
                + "<td>\(HTML.escape(report.areaID.flatMap { names[$0] } ?? ""))</td>"
                + "<td>\(HTML.escape(forms[report.templateID] ?? ""))</td>"
                + "<td class=\"score num\(ConsoleLayout.outcomeClass(report.passed))\">\(ConsoleLayout.percent(report.score))\(ConsoleLayout.outcomeWord(report.passed))</td></tr>"
        }
        return html + "</tbody></table></section>\n"
    }

    /// The form of a request for service: where (building, area), what, and why.
    static func requestForm(_ places: [(Facility, [Area])], csrf: String, form: ConsoleForm) -> String {
        var html =
            "<form class=\"card\" id=\"request-form\" method=\"post\" enctype=\"multipart/form-data\" action=\"\(ConsoleRoutes.consolePath)/requests/new\">"
            + ConsoleLayout.csrfField(csrf)
            + "<input type=\"hidden\" name=\"request_id\" value=\"\(HTML.attribute(form.text("request_id") ?? UUID().uuidString.lowercased()))\">"
        html +=
            "<label>Building <select name=\"facility\">"
            + HTML.options(places.map { ($0.0.id, $0.0.name) }, selected: form.text("facility") ?? "")
            + "</select></label>"
        let areas = places.flatMap { place in place.1.map { ($0.id, "\(place.0.name): \($0.name)") } }
        html +=
            "<label>Area <select name=\"area\">"
            + HTML.options([("", "anywhere")] + areas, selected: form.text("area") ?? "")
            + "</select></label>"
        html +=
            "<label>What needs doing <input type=\"text\" name=\"title\" required maxlength=\"\(NewActionRequest.longestTitle)\" value=\"\(HTML.attribute(form.raw("title") ?? ""))\"></label>"
            + "<label>Details <textarea name=\"description\" rows=\"4\" maxlength=\"\(NewActionRequest.longestDescription)\">\(HTML.escape(form.raw("description") ?? ""))</textarea></label>"
            + "<label>A photo (JPEG or PNG, optional) <input type=\"file\" name=\"file\" accept=\"image/jpeg,image/png\"></label>"
            + "<button type=\"submit\">Send the request</button></form>\n"
        return html
    }
}
