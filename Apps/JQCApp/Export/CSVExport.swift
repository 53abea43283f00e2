import Foundation
import FieldTypes
import JQCCore
import Models
import Scoring

/// The CSV export, for a spreadsheet: RFC 4180 (CRLF line ends, a field
/// quoted when it holds a comma, a `;`, a tab, a quote, CR or LF, inner
/// quotes doubled), UTF-8 without a byte-order mark.
///
/// One table, one header row, every row standing alone (so it sorts and
/// filters, and several reports' exports concatenate): the report's columns
/// (`report_id`, `server_id`, `state`, `template`, `facility`, `area`,
/// `report_score`, `verdict`, `follow_up_required`) repeated on every row,
/// then `row` saying what the row is: `field` (one per form field, in form
/// order: `field_id`, `label`, `type`, `required`, `answer` as a person reads
/// it, `score_outcome`, `earned`, `possible`, `photos` on the field),
/// `issue` (`issue_id`, `severity`, `description`, `photos`), or, last,
/// `summary`: one row per line of the summary block, its name in `label` and
/// its value in `answer` (`Template`, `Facility`, `Area`, `State`, `Score`
/// with `earned` and `possible`, `Verdict`, `Pass mark`, `Passed` (passed or
/// failed; empty when the form sets no pass mark), `Deficiencies` (how many,
/// their field ids in `earned`), `Fields`, `Fields answered`,
/// `Fields passed`, `Fields failed`, `Issues`, `Photos`). Answers are
/// written as text ("pass", "4 of 5"), notes with their line breaks inside the
/// quoted cell; the JSON export carries every value exactly.
///
/// Formula injection: a spreadsheet runs a cell that starts with `=`, `+`,
/// `-` or `@` (and some treat a leading tab or CR the same way), so such a
/// cell gets a leading `'`, which spreadsheets show as text. A negative number
/// therefore reads `'-2`. The rule is `CSVText`'s, shared with the server's exports.
enum CSVExport {
    static let header = [
        "report_id", "server_id", "state", "template", "facility", "area", "report_score", "verdict",
        "follow_up_required", "row", "field_id", "label", "type", "required", "answer", "score_outcome",
        "earned", "possible", "issue_id", "severity", "description", "photos",
    ]

    /// The whole CSV document.
    static func text(_ content: ExportedReport) -> String {
        line(header) + rows(content)
    }

    /// One report's records without the header: several reports' follow one header in one table.
    static func rows(_ content: ExportedReport) -> String {
        let report = reportCells(content)
        var rows: [[String]] = []
        for field in fieldRows(content) {
            let photos = content.photos.filter { $0.fieldID?.rawValue == field[0] && $0.issueLocalID == nil }.count
            rows.append(report + ["field"] + field + ["", "", "", photos > 0 ? String(photos) : ""])
        }
        for issue in content.issues {
            rows.append(
                report + ["issue"] + Array(repeating: "", count: 8)
                    + [
                        issue.localID.uuidString.lowercased(), issue.severity.rawValue, kept(issue.description),
                        String(content.photos(ofIssue: issue).count),
                    ])
        }
        for (name, value, earned, possible) in summary(content) {
            rows.append(report + ["summary", "", name, "", "", value, "", earned, possible, "", "", "", ""])
        }
        return rows.map(line).joined()
    }

    /// The summary block: name, value, and the score's earned and possible on its row.
    static func summary(_ content: ExportedReport) -> [(String, String, String, String)] {
        let report = content.report
        let score = content.score
        var answerable = report.answers.answeredIDs.count
        var answered = answerable
        if let template = content.template {
            let shown = template.schema.fields.filter {
                content.registry.resolve($0).isAnswerable && !content.hidden.contains($0.id)
            }
            answerable = shown.count
            answered = shown.filter { report.answers[$0.id] != nil }.count
        }
        let outcomes = score?.fields.filter { !$0.hidden }.map(\.outcome) ?? []
        let passed = outcomes.filter { if case .scored(_, true) = $0 { true } else { false } }.count
        let failed = outcomes.filter { if case .scored(_, false) = $0 { true } else { false } }.count
        let scoreText = reportCells(content)[6]
        return [
            ("Template", content.templateText, "", ""),
            ("Facility", content.facilityText, "", ""),
            ("Area", content.areaText ?? "", "", ""),
            ("State", report.state.rawValue, "", ""),
            ("Score", scoreText, score.map { number($0.earned) } ?? "", score.map { number($0.possible) } ?? ""),
            ("Verdict", score?.verdict.rawValue ?? "", "", ""),
            ("Pass mark", score?.passThreshold.map(ReportPresenter.percent) ?? "", "", ""),
            ("Passed", score?.passed.map { $0 ? "passed" : "failed" } ?? "", "", ""),
            (
                "Deficiencies", score.map { String($0.deficiencies.count) } ?? "",
                score?.deficiencies.map(\.rawValue).joined(separator: "; ") ?? "", ""
            ),
            ("Fields", String(answerable), "", ""),
            ("Fields answered", String(answered), "", ""),
            ("Fields passed", score == nil ? "" : String(passed), "", ""),
            ("Fields failed", score == nil ? "" : String(failed), "", ""),
            ("Issues", String(content.issues.count), "", ""),
            ("Photos", String(content.photos.count), "", ""),
        ]
    }

    /// The report's own columns, the same on every row.
    static func reportCells(_ content: ExportedReport) -> [String] {
        let report = content.report
        let score = content.score
        return [
            content.localID, report.serverID ?? "", report.state.rawValue, content.templateText, content.facilityText,
            content.areaText ?? "",
            score?.percentText ?? (report.score.map { "\(Int(($0 * 100).rounded()))%" } ?? "not scored"),
            score?.verdict.rawValue ?? "", report.followUpRequired ? "true" : "false",
        ]
    }

    /// Per field of the form, in order: `field_id` to `possible`; without a
    /// cached template, one row per stored answer so nothing is lost.
    static func fieldRows(_ content: ExportedReport) -> [[String]] {
        let answers = content.report.answers
        guard let template = content.template else {
            return answers.answeredIDs.map { id in
                [id.rawValue, "", "", "", answers[id]?.canonicalString() ?? "", "", "", ""]
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
                hidden
                    ? ReportPresenter.hiddenText : (type.isAnswerable ? answerText(answer, of: type, for: field) : ""),
                hidden
                    ? "hidden_by_condition" : (contribution.map { ReportPresenter.outcomeName($0) } ?? "not_scoreable"),
                counts ? number(contribution?.earned ?? 0) : "",
                counts ? number(contribution?.possible ?? 0) : "",
            ]
        }
    }

    /// An answer as a person reads it: notes as typed, line breaks kept in the
    /// cell (RFC 4180 quotes it); every other answer its one-line display.
    static func answerText(_ answer: JSONValue?, of type: any FieldType, for field: FieldDefinition) -> String {
        if let answer, type.validate(answer, for: field) == nil, case .text(let text) = type.layout(answer, for: field)
        {
            return kept(text)
        }
        return type.display(answer, for: field, style: .plain)
    }

    /// Text with its line breaks as LF, tabs as a space, control characters
    /// (a terminal's escape sequences) dropped: `export` may write to a terminal.
    static func kept(_ text: String) -> String {
        OneLine.flatten(text, lineBreak: "\n")
    }

    /// One record with its CRLF; an empty record is a blank line.
    static func line(_ cells: [String]) -> String { CSVText.line(cells) }

    /// One cell: the product's one CSV rule (`CSVText`), shared with the server's exports.
    static func cell(_ raw: String) -> String { CSVText.cell(raw) }

    /// A number as `show` writes it: whole numbers bare, others to two places.
    static func number(_ value: Double) -> String { ReportPresenter.number(value) }
}
