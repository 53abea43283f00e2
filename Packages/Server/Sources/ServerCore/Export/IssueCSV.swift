import FieldTypes
import Foundation
import Models
import ServerStore

/// The issues export (`GET /exports/issues`, `jqc-server export --what
/// issues`): one row an issue of the exported reports' current revisions, in
/// the reports' order and each report's issues in its order, with the
/// report, its site, area and inspector (codes and names), and the action
/// the issue became, if any, as the export's snapshot holds it. Cells are
/// quoted and guarded as the report CSV's are (`ExportCSV.line`).
enum IssueCSV {
    /// The columns, in order.
    static let columns = [
        "report_server_id", "issue_local_id", "completed_at", "template_id", "site", "site_name", "area",
        "area_name", "inspector", "inspector_name", "severity", "description", "photos", "action_id",
        "action_state",
    ]

    /// The header row.
    static var header: String { ExportCSV.line(columns) }

    /// The rows of a report's issues (none for a report without), and how many.
    static func rows(_ report: ExportedReport) -> (text: String, count: Int) {
        let issues = CanonicalJSON.value(report.issuesJSON).arrayValue ?? []
        var text = ""
        for issue in issues {
            let localID = issue["local_id"]?.stringValue ?? ""
            let action = report.issueActions[localID.lowercased()]
            text += ExportCSV.line([
                report.serverID, localID, report.acceptedAt, report.templateID, report.facilityID,
                report.facilityName ?? "", report.areaID ?? "", report.areaName ?? "", report.inspector,
                report.inspectorName ?? "", issue["severity"]?.stringValue ?? "",
                issue["description"]?.stringValue ?? "", String(issue["photo_local_ids"]?.arrayValue?.count ?? 0),
                action?.id ?? "", action?.state ?? "",
            ])
        }
        return (text, issues.count)
    }
}
