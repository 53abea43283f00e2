import Foundation
import Models
import ServerStore

/// `GET /console/coverage`: each site's and area's scheduled visits over a
/// month or dates of the organisation's time zone (on time, late, missed,
/// open) and the areas nobody inspected; and the same as CSV
/// (`/console/coverage/csv`), the CSV `report coverage` writes. Staff only.
extension ConsoleRoutes {
    /// `GET /console/coverage`.
    func consoleCoverage(_ input: ConsoleInput) throws(ServerError) -> ConsolePage {
        _ = try input.requireSupervisor()
        let (report, pairs, sites) = try store.read {
            session -> (CoverageReport, [(String, String)], [ManagedFacility]) in
            let (report, pairs) = try coverage(input, in: session)
            return (report, pairs, try session.managedFacilities().filter { $0.retiredAt == nil })
        }
        var html = "<form id=\"coverage-form\" method=\"get\" action=\"\(Self.consolePath)/coverage\">\n"
        html +=
            "<label>Month <input type=\"month\" name=\"month\" value=\"\(HTML.attribute(input.query("month") ?? (input.query("from") == nil ? report.period.name : "")))\"></label>\n"
            + "<label>or from <input type=\"date\" name=\"from\" value=\"\(HTML.attribute(input.query("from") ?? ""))\"></label>\n"
            + "<label>to <input type=\"date\" name=\"to\" value=\"\(HTML.attribute(input.query("to") ?? ""))\"></label>\n"
            + "<label>Site <select name=\"facility\">"
            + HTML.options(
                [("", "every site")] + sites.map { ($0.facility.id, $0.facility.name) },
                selected: input.query("facility") ?? "") + "</select></label>\n"
            + "<button type=\"submit\">Show</button>\n</form>\n"
        html +=
            "<p><a id=\"coverage-csv\" href=\"\(Self.consolePath)/coverage/csv\(HTML.query(pairs))\">Download as CSV</a>"
            + " <span class=\"muted\">· \(HTML.escape(report.period.name)). A visit counts in the period its window begins in; "
            + "with no inspection by its window's end and grace, it is missed.</span></p>\n"
        html += Self.coverageTable(report)
        return ConsolePage(title: "Coverage", body: html, viewer: input.viewer)
    }

    /// `GET /console/coverage/csv`: the page's coverage as a file.
    func consoleCoverageCSV(_ input: ConsoleInput) throws(ServerError) -> ConsoleReply {
        _ = try input.requireSupervisor()
        let report = try store.read { session -> CoverageReport in try coverage(input, in: session).0 }
        let name = "coverage-\(report.period.name.replacingOccurrences(of: " ", with: "_")).csv"
        return .download(Data(report.csv.utf8), contentType: "text/csv; charset=utf-8", fileName: name)
    }

    /// The coverage the query names (`month`, or `from` and `to`; this month
    /// when neither; `facility`), with the query's pairs for the CSV link.
    private func coverage(_ input: ConsoleInput, in session: any StorageSession) throws(ServerError)
        -> (CoverageReport, [(String, String)])
    {
        let asked = try ConsolePeriod(input, zone: try OrganisationZone.current(in: session))
        let period = asked.period
        let facilityID = input.query("facility").flatMap { $0.isEmpty ? nil : $0 }
        let pairs = asked.pairs + (facilityID.map { [("facility", $0)] } ?? [])
        let report = try CoverageReport.read(
            period: period, facilityID: facilityID, now: Date(), grace: try VisitGrace.current(in: session),
            in: session)
        return (report, pairs)
    }

    /// The coverage as a table, an area nobody inspected marked.
    static func coverageTable(_ report: CoverageReport) -> String {
        guard !report.lines.isEmpty else {
            return "<p class=\"muted\">No sites or areas to cover in \(HTML.escape(report.period.name)).</p>\n"
        }
        var html =
            "<table id=\"coverage-table\">\n<thead><tr><th>Site</th><th>Area</th><th class=\"num\">Visits</th>"
            + "<th class=\"num\">On time</th><th class=\"num\">Late</th><th class=\"num\">Missed</th>"
            + "<th class=\"num\">Open</th><th class=\"num\">Inspections</th></tr></thead>\n<tbody>\n"
        for line in report.lines {
            let mark = line.uninspected ? " <strong class=\"uninspected\">not inspected</strong>" : ""
            html +=
                "<tr data-facility=\"\(HTML.attribute(line.facilityID))\" data-area=\"\(HTML.attribute(line.areaID ?? ""))\">"
                + "<td>\(HTML.escape(line.facilityName))</td><td>\(HTML.escape(line.areaName))\(mark)</td>"
                + "<td class=\"num\">\(line.expected)</td><td class=\"num\">\(line.onTime)</td>"
                + "<td class=\"num\">\(line.late)</td><td class=\"num\">\(line.missed)</td>"
                + "<td class=\"num\">\(line.open)</td><td class=\"num\">\(line.inspections)</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }
}

extension ConsoleRoutes {
    /// The site page's coverage of this month: its areas' visits and those nobody inspected.
    func siteCoverage(facilityID: String, zone: TimeZone) throws(ServerError) -> String {
        let report = try store.read { session -> CoverageReport in
            try CoverageReport.read(
                period: try RollupPeriod.named(month: RollupPeriod.thisMonth(zone: zone), zone: zone),
                facilityID: facilityID, now: Date(), grace: try VisitGrace.current(in: session), in: session)
        }
        return "<section id=\"site-coverage\"><h2>Coverage this month</h2>\n" + Self.coverageTable(report)
            + "<p><a href=\"\(Self.consolePath)/coverage?facility=\(HTML.percent(facilityID))\">Coverage of other periods</a></p></section>\n"
    }
}
