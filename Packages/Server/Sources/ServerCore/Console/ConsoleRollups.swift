import FieldTypes
import Foundation
import Models
import ServerStore

/// `GET /console/rollups`: average score, pass rate and deficiencies by
/// site, area, area type, inspector, form or item over a month, week,
/// quarter or dates of the organisation's time zone; and the same as CSV
/// (`/console/rollups/csv`). Supervisors and admins only.
extension ConsoleRoutes {
    /// What a roll-up page asks for, read from its query.
    private struct RollupAsk {
        var by: RollupKey
        var period: RollupPeriod
        var facilityID: String?
        var templateID: String?
        /// The query's own pairs, for the CSV link and the form.
        var pairs: [(String, String)]
    }

    /// `GET /console/rollups`.
    func consoleRollups(_ input: ConsoleInput) throws(ServerError) -> ConsolePage {
        _ = try input.requireSupervisor()
        let (ask, report, sites, templates) = try store.read {
            session -> (RollupAsk, RollupReport, [ManagedFacility], [ManagedTemplate]) in
            let ask = try rollupAsk(input, in: session)
            return (
                ask,
                try RollupReport.read(
                    by: ask.by, period: ask.period, facilityID: ask.facilityID, templateID: ask.templateID, in: session),
                try session.managedFacilities(), try session.managedTemplates()
            )
        }
        var html = Self.rollupForm(input, ask, sites: sites, templates: templates)
        html +=
            "<p><a id=\"rollup-csv\" href=\"\(Self.consolePath)/rollups/csv\(HTML.query(ask.pairs))\">Download as CSV</a>"
            + " <span class=\"muted\">· \(HTML.escape(ask.period.name)), times in \(HTML.escape(report.zoneName))</span></p>\n"
        html += Self.rollupTable(report)
        return ConsolePage(title: "Roll-ups", body: html, viewer: input.viewer)
    }

    /// `GET /console/rollups/csv`: the page's roll-up as a file.
    func consoleRollupsCSV(_ input: ConsoleInput) throws(ServerError) -> ConsoleReply {
        _ = try input.requireSupervisor()
        let report = try store.read { session -> RollupReport in
            let ask = try rollupAsk(input, in: session)
            return try RollupReport.read(
                by: ask.by, period: ask.period, facilityID: ask.facilityID, templateID: ask.templateID, in: session)
        }
        let name = "rollup-\(report.by.rawValue)-\(report.period.name.replacingOccurrences(of: " ", with: "_")).csv"
        return .download(Data(report.csv.utf8), contentType: "text/csv; charset=utf-8", fileName: name)
    }

    /// The roll-up the query names: `by` (site when absent), and a period:
    /// `month`, `week`, `quarter`, or `from` and `to`; this month when none.
    private func rollupAsk(_ input: ConsoleInput, in session: any StorageSession) throws(ServerError) -> RollupAsk {
        let byText = input.query("by") ?? RollupKey.site.rawValue
        guard let by = RollupKey(rawValue: byText) else {
            throw ServerError.badRequest("a roll-up cannot group by \(OneLine.quote(byText, limit: 30))")
        }
        let asked = try ConsolePeriod(input, zone: try OrganisationZone.current(in: session))
        let period = asked.period
        var pairs: [(String, String)] = [("by", by.rawValue)] + asked.pairs
        let facilityID = input.query("facility")
        let templateID = input.query("template")
        if let facilityID { pairs.append(("facility", facilityID)) }
        if let templateID { pairs.append(("template", templateID)) }
        return RollupAsk(by: by, period: period, facilityID: facilityID, templateID: templateID, pairs: pairs)
    }

    private static func rollupForm(
        _ input: ConsoleInput, _ ask: RollupAsk, sites: [ManagedFacility], templates: [ManagedTemplate]
    ) -> String {
        let names: [(RollupKey, String)] = [
            (.site, "site"), (.area, "area"), (.areaType, "area type"), (.inspector, "inspector"),
            (.template, "form"), (.item, "item (fails most)"),
        ]
        var html = "<form id=\"rollup\" method=\"get\" action=\"\(consolePath)/rollups\">\n"
        html +=
            "<label>By <select name=\"by\">"
            + HTML.options(names.map { ($0.0.rawValue, $0.1) }, selected: ask.by.rawValue) + "</select></label>\n"
        html +=
            "<label>Month <input type=\"month\" name=\"month\" value=\"\(HTML.attribute(input.query("month") ?? (input.query("from") == nil && input.query("week") == nil && input.query("quarter") == nil ? ask.period.name : "")))\"></label>\n"
        html +=
            "<label>or from <input type=\"date\" name=\"from\" value=\"\(HTML.attribute(input.query("from") ?? ""))\"></label>\n"
            + "<label>to <input type=\"date\" name=\"to\" value=\"\(HTML.attribute(input.query("to") ?? ""))\"></label>\n"
        html +=
            "<label>Site <select name=\"facility\">"
            + HTML.options(
                [("", "every site")] + sites.map { ($0.facility.id, $0.facility.name) },
                selected: ask.facilityID ?? "") + "</select></label>\n"
        html +=
            "<label>Form <select name=\"template\">"
            + HTML.options(
                [("", "every form")] + templates.map { ($0.template.id, $0.template.name) },
                selected: ask.templateID ?? "") + "</select></label>\n"
        return html + "<button type=\"submit\">Show</button>\n</form>\n"
    }

    private static func rollupTable(_ report: RollupReport) -> String {
        guard !report.lines.isEmpty else {
            return "<p class=\"muted\">No reports were received in \(HTML.escape(report.period.name)).</p>\n"
        }
        var html = "<table id=\"rollup-table\" data-by=\"\(report.by.rawValue)\">\n<thead><tr>"
        if report.by == .item {
            html +=
                "<th>Form</th><th>Item</th><th class=\"num\">Inspections</th><th class=\"num\">Deficient</th>"
                + "<th class=\"num\">Share deficient</th></tr></thead>\n<tbody>\n"
            for line in report.lines {
                html +=
                    "<tr><td>\(HTML.escape(line.name))</td><td>\(HTML.escape(line.fieldLabel ?? ""))</td>"
                    + "<td class=\"num\">\(line.sums.inspections)</td><td class=\"num\">\(line.sums.deficiencies)</td>"
                    + "<td class=\"num\">\(ConsoleLayout.percent(line.sums.deficienciesPerInspection))</td></tr>\n"
            }
            return html + "</tbody></table>\n"
        }
        html +=
            "<th>Name</th><th class=\"num\">Inspections</th><th class=\"num\">Average score</th>"
            + "<th class=\"num\">Pass rate</th><th class=\"num\">Deficiencies per inspection</th></tr></thead>\n<tbody>\n"
        for line in report.lines {
            let s = line.sums
            html +=
                "<tr data-key=\"\(HTML.attribute(s.key))\"><td>\(HTML.escape(line.name))</td><td class=\"num\">\(s.inspections)</td>"
                + "<td class=\"num\">\(ConsoleLayout.percent(s.averageScore))</td>"
                + "<td class=\"num\">\(ConsoleLayout.percent(s.passRate))</td>"
                + "<td class=\"num\">\(s.deficienciesPerInspection.map { String(format: "%.2f", $0) } ?? "–")</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }
}
