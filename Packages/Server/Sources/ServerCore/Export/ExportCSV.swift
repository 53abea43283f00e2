import FieldTypes
import Foundation
import Models
import ServerStore

/// The CSV of an export: one template's reports, one row each, RFC 4180
/// (CRLF line ends, a cell quoted when it holds a comma, a `;`, a tab, a
/// quote, CR or LF, inner quotes doubled), UTF-8 without a byte-order mark.
///
/// The columns are the contract's, in its order, then `field:<id>` for every
/// field of any version of the template, and no others: the contract fixes
/// them, so a report's pass and deficiencies are in the JSON Lines export,
/// in the CSV with labels (`LabelledCSV`) and in the roll-ups' CSV, not
/// here. Answers are written as text: strings as they are, numbers in JSON
/// form without float noise (`ExportNumber`), booleans `true`/`false`, an
/// array of strings (options, photo ids) joined by `; `, tables and other
/// objects or arrays as compact JSON, null or absent empty.
///
/// Formula injection: a spreadsheet runs a cell that starts with `=`, `+`,
/// `-` or `@` (some treat a leading tab or CR the same way), so such a cell
/// gets a leading `'` unless it is a number (a negative score stays a number);
/// the rule is `CSVText`'s, shared with the device's export.
enum ExportCSV {
    /// The report columns, before the fields.
    static let reportColumns = [
        "server_id", "local_id", "template_id", "template_version", "facility_id", "area_id", "inspector",
        "completed_at", "score", "review_state", "revision", "change",
    ]

    /// The header row for a template with these field ids.
    static func header(fieldIDs: [String]) -> String {
        line(reportColumns + fieldIDs.map { "field:" + $0 })
    }

    /// One report's row.
    static func row(_ row: ExportedReport, templateVersion: Int?, fieldIDs: [String], generation: String) -> String {
        let answers = (try? JSONValue.parse(row.payloadJSON))?["answers"]?.objectValue ?? [:]
        var cells = [
            row.serverID, row.localID, row.templateID, templateVersion.map(String.init) ?? "", row.facilityID,
            row.areaID ?? "", row.inspector, row.acceptedAt, row.serverScore.map(JSONText.number) ?? "",
            row.review.state.rawValue,
            String(row.revision), ReviewCursor.encode(row.review.change, generation: generation),
        ]
        cells.reserveCapacity(cells.count + fieldIDs.count)
        for id in fieldIDs { cells.append(text(answers[id])) }
        return line(cells)
    }

    /// An answer as text.
    static func text(_ answer: JSONValue?) -> String {
        switch answer {
        case nil, .null?: return ""
        case .string(let text)?: return text
        case .integer(let number)?: return String(number)
        case .double(let number)?: return JSONText.number(number)
        case .bool(let flag)?: return flag ? "true" : "false"
        case .array(let items)?:
            let strings = items.compactMap(\.stringValue)
            if strings.count == items.count { return strings.joined(separator: "; ") }
            return answer?.canonicalString() ?? ""
        case .object?: return answer?.canonicalString() ?? ""
        }
    }

    /// One record with its CRLF.
    static func line(_ cells: [String]) -> String { CSVText.line(cells, keepingNumbers: true) }

    /// One cell: the product's one CSV rule (`CSVText`), a number left a number.
    static func cell(_ raw: String) -> String { CSVText.cell(raw, keepingNumbers: true) }
}
