import FieldTypes
import Foundation
import Models
import ServerStore

/// What a report export writes.
enum ReportLayout: Sendable, Equatable {
    /// JSON Lines, then the end line.
    case lines
    /// One template's CSV, with exactly the contract's columns.
    case table
    /// One template's CSV for a person to read (`labels=true`): the fields'
    /// labels, names beside codes, the score as a percent (`LabelledCSV`).
    case labelledTable
    /// One row an issue of the reports (`IssueCSV`).
    case issues

    /// Whether the layout is one template's table, which needs `template_id`.
    var isTemplateTable: Bool { self == .table || self == .labelledTable }
}

/// A report export as asked for: what to write, which reports, and the
/// window's bounds as given (resolved in the organisation's time zone when
/// the export opens, `ExportWindow`).
struct ReportExportRequest: Sendable, Equatable {
    var layout = ReportLayout.lines
    var query = ExportQuery()
    var from: String?
    var to: String?

    /// The parameters of `GET /exports/reports`.
    static let reportParameters: Set<String> = [
        "format", "since", "template_id", "facility_id", "review_state", "from", "to", "labels",
    ]

    /// The parameters of `GET /exports/issues`: the reports' filters, CSV only.
    static let issueParameters: Set<String> = [
        "format", "since", "template_id", "facility_id", "review_state", "from", "to",
    ]

    /// `GET /exports/reports`: JSON Lines, or one template's CSV (with labels when `labels=true`).
    static func reports(_ query: [String: String]) throws(ServerError) -> ReportExportRequest {
        // `format=issues` is the issues export under the reports' route, as a manager may ask for it.
        if query["format"] == "issues" {
            var rest = query
            rest["format"] = nil
            return try issues(rest)
        }
        let parameters = try ExportParameters(query, known: reportParameters)
        var request = try filters(parameters)
        let format = try parameters.format([.jsonl, .csv])
        let labels = try parameters.flag("labels")
        if format == .csv {
            guard request.query.templateID != nil else {
                throw ServerError.badRequest("a CSV export is one template's table: give 'template_id'")
            }
            request.layout = labels ? .labelledTable : .table
        } else if labels {
            throw ServerError.badRequest("'labels' names a CSV's columns; ask for format=csv with it")
        }
        return request
    }

    /// `GET /exports/issues`: one row an issue, CSV only (JSON Lines of the
    /// reports carry their issues already).
    static func issues(_ query: [String: String]) throws(ServerError) -> ReportExportRequest {
        let parameters = try ExportParameters(query, known: issueParameters)
        var request = try filters(parameters)
        guard parameters.value("format") == nil || parameters.value("format") == "csv" else {
            throw ServerError.badRequest(
                "the issues export is CSV only, not \(OneLine.quote(parameters.value("format") ?? "", limit: 40)); the JSON Lines export of reports carries each report's issues"
            )
        }
        request.layout = .issues
        return request
    }

    /// The filters both routes share.
    private static func filters(_ parameters: ExportParameters) throws(ServerError) -> ReportExportRequest {
        ReportExportRequest(
            query: ExportQuery(
                since: parameters.value("since"), templateID: parameters.value("template_id"),
                facilityID: parameters.value("facility_id"), reviewState: try parameters.reviewState()),
            from: parameters.value("from"), to: parameters.value("to"))
    }
}
