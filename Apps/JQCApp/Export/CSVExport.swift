import Foundation
import FieldTypes
import Models
import Scoring

/// The CSV export, for a spreadsheet: RFC 4180 (CRLF line ends, a field
/// quoted when it holds a comma, a quote, CR or LF, inner quotes doubled),
/// UTF-8 without a byte-order mark.
///
/// Three sections, each after a blank line and a title row: one row per form
/// field in form order (`field_id,label,type,required,answer,display,
/// score_outcome,earned,possible`, where `answer` is the contract's JSON
/// encoding and `display` the one-line human reading), then `issues`
/// (`issue_id,severity,description,photo_count`), then `summary` as
/// `key,value` rows.
///
/// Formula injection: a spreadsheet runs a cell that starts with `=`, `+`,
/// `-` or `@` (and some treat a leading tab or CR the same way), so such a
/// cell gets a leading `'`, which spreadsheets show as text. A negative number
/// therefore reads `'-2`; the JSON export carries every value exactly.
enum CSVExport {
    /// The whole CSV document.
    static func text(_ content: ExportedReport) -> String {
        var rows: [[String]] = [["field_id", "label", "type", "required", "answer", "display", "score_outcome", "earned", "possible"]]
        rows += fieldRows(content)
        rows.append([])
        rows.append(["issues"])
        rows.append(["issue_id", "severity", "description", "photo_count"])
        for issue in content.issues {
            rows.append([issue.localID.uuidString.lowercased(), issue.severity.rawValue, issue.description,
                         String(content.photos(ofIssue: issue).count)])
        }
        rows.append([])
        rows.append(["summary"])
        rows.append(["key", "value"])
        rows += summaryRows(content)
        return rows.map(line).joined()
    }

    /// One row per field of the form, in order; without a cached template,
    /// one row per stored answer so nothing is lost.
    static func fieldRows(_ content: ExportedReport) -> [[String]] {
        let answers = content.report.answers
        guard let template = content.template else {
            return answers.answeredIDs.map { id in
                [id.rawValue, "", "", "", answers[id]?.canonicalString() ?? "", answers[id]?.canonicalString() ?? "", "", "", ""]
            }
        }
        return template.schema.fields.map { field in
            let type = content.registry.resolve(field)
            let answer = answers[field.id]
            let contribution = content.contribution(field.id)
            let counts = contribution?.counts ?? false
            let hidden = content.hidden.contains(field.id)
            return [
                field.id.rawValue, field.label, field.type, field.required ? "true" : "false",
                answer?.canonicalString() ?? "",
                hidden ? ReportPresenter.hiddenText : (type.isAnswerable ? type.display(answer, for: field, style: .plain) : ""),
                hidden ? "hidden_by_condition" : (contribution.map { ReportPresenter.outcomeName($0) } ?? "not_scoreable"),
                counts ? number(contribution?.earned ?? 0) : "",
                counts ? number(contribution?.possible ?? 0) : "",
            ]
        }
    }

    /// The `summary` section: one `key,value` row per fact a supervisor files.
    static func summaryRows(_ content: ExportedReport) -> [[String]] {
        let report = content.report
        let score = content.score
        return [
            ["report_id", content.localID],
            ["server_id", report.serverID ?? ""],
            ["state", report.state.rawValue],
            ["template", content.templateText],
            ["facility", content.facilityText],
            ["area", content.areaText ?? ""],
            ["score", score?.percentText ?? (report.score.map { "\(Int(($0 * 100).rounded()))%" } ?? "not scored")],
            ["earned", score.map { number($0.earned) } ?? ""],
            ["possible", score.map { number($0.possible) } ?? ""],
            ["verdict", score?.verdict.rawValue ?? ""],
            ["critical_failures", score?.criticalFailures.map(\.rawValue).joined(separator: " ") ?? ""],
            ["follow_up_required", report.followUpRequired ? "true" : "false"],
            ["parent_local_id", report.parentLocalID?.uuidString.lowercased() ?? ""],
            ["updated_at_device", ExportedReport.timestamp(report.updatedAtDevice)],
            ["completed_at_device", report.completedAtDevice.map(ExportedReport.timestamp) ?? ""],
            ["exported_at_device", ExportedReport.timestamp(content.exportedAt)],
        ]
    }

    /// One record with its CRLF; an empty record is a blank line.
    static func line(_ cells: [String]) -> String {
        cells.map(cell).joined(separator: ",") + "\r\n"
    }

    /// One cell: guarded against formulas, then quoted when RFC 4180 needs it.
    static func cell(_ raw: String) -> String {
        var text = raw
        if let first = text.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) {
            text = "'" + text
        }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A number as `show` writes it: whole numbers bare, others to two places.
    static func number(_ value: Double) -> String { ReportPresenter.number(value) }
}
