import FieldTypes
import Foundation
import Models
import ServerStore

/// One template's CSV for a person to read (`labels=true`,
/// `jqc-server export --labels`), beside the contract's CSV, which stays as
/// the contract fixes it. Its header names each field by its label (the
/// newest version's), and sections and other fields that take no answer are
/// left out; a label that two fields share, that is blank, or that is the
/// name of a report column, gets the field's id (`Floor (floor_2)`), so
/// every header cell is unique. The site, the area and the inspector come
/// with their names (`site`, `site_name`, ...), the score as a percent
/// (`87.5`), then `passed` (`true`, `false`, or empty when the template has
/// no pass mark) and the number of deficiencies. A field of photos holds how
/// many it has (the photos themselves are in the zip export). The header
/// and every cell pass the same formula guard (`ExportCSV.line`).
struct LabelledCSV: Sendable {
    /// The report columns, before the fields.
    static let reportColumns = [
        "server_id", "local_id", "template_id", "template_version", "site", "site_name", "area", "area_name",
        "inspector", "inspector_name", "completed_at", "score_percent", "passed", "deficiencies", "review_state",
        "revision", "change",
    ]

    /// The fields that take answers, in the table's order.
    let fields: [TemplateField]
    /// The ids of fields whose answers are photos only.
    let photoFields: Set<String>
    /// The header's cells, each unique.
    let header: [String]

    /// The table of `fields` (every field of any version, `TemplateVersions.fields(of:)`), asking `registry` which take answers.
    init(fields all: [TemplateField], registry: FieldTypeRegistry) {
        var fields: [TemplateField] = []
        var photoFields = Set<String>()
        for field in all {
            // A type this server does not know may hold answers: kept, its answers written as they are.
            if let type = registry.type(named: field.type) {
                guard type.isAnswerable else { continue }
                if type.takesPhotos && !type.takesTypedAnswers { photoFields.insert(field.id) }
            }
            fields.append(field)
        }
        self.fields = fields
        self.photoFields = photoFields
        header = Self.reportColumns + Self.uniqueNames(fields, besides: Self.reportColumns)
    }

    /// A header cell for each field: its label, or with its id where the label alone would not be unique.
    static func uniqueNames(_ fields: [TemplateField], besides taken: [String]) -> [String] {
        func label(_ field: TemplateField) -> String {
            field.label.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        var uses: [String: Int] = [:]
        for field in fields { uses[label(field), default: 0] += 1 }
        var taken = Set(taken)
        return fields.map { field in
            let label = label(field)
            var name = label
            if label.isEmpty {
                name = "field:" + field.id
            } else if uses[label, default: 0] > 1 || taken.contains(label) {
                name = "\(label) (\(field.id))"
            }
            var suffix = 2
            let base = name
            while taken.contains(name) {
                name = "\(base) \(suffix)"
                suffix += 1
            }
            taken.insert(name)
            return name
        }
    }

    /// The header row.
    var headerLine: String { ExportCSV.line(header) }

    /// One report's row.
    func row(_ report: ExportedReport, templateVersion: Int?, generation: String) -> String {
        let answers = (try? JSONValue.parse(report.payloadJSON))?["answers"]?.objectValue ?? [:]
        let grade = report.grade
        var cells = [
            report.serverID, report.localID, report.templateID, templateVersion.map(String.init) ?? "",
            report.facilityID, report.facilityName ?? "", report.areaID ?? "", report.areaName ?? "",
            report.inspector, report.inspectorName ?? "", report.acceptedAt,
            report.serverScore.map { JSONText.number(ExportNumber.percent($0)) } ?? "",
            grade?.passed.map { $0 ? "true" : "false" } ?? "", grade.map { String($0.deficiencies.count) } ?? "",
            report.review.state.rawValue, String(report.revision),
            ReviewCursor.encode(report.review.change, generation: generation),
        ]
        cells.reserveCapacity(cells.count + fields.count)
        for field in fields {
            let answer = answers[field.id]
            if photoFields.contains(field.id), case .array(let photos)? = answer {
                cells.append(String(photos.count))
            } else {
                cells.append(ExportCSV.text(answer))
            }
        }
        return ExportCSV.line(cells)
    }
}
