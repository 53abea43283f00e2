import Foundation
import JQCCore
import Models

/// The JSON export: the `show --json` document (from `ReportPresenter`, with
/// the score breakdown, issues and photos) plus what a reader away from this
/// device needs: the template's name and version, the facility's and area's
/// names, and when and by what it was exported.
enum JSONExport {
    /// The export document.
    static func document(_ content: ExportedReport) -> JSONValue {
        let shown = content.presenter.json(
            content.report, template: content.template, photos: content.photos,
            issues: content.issues, score: content.score)
        var object = shown.objectValue ?? [:]
        object["template_version"] = content.template.map { .integer(Int64($0.version)) } ?? .null
        object["facility_name"] = content.facilityName.map { .string($0) } ?? .null
        object["area_name"] = content.areaName.map { .string($0) } ?? .null
        object["exported_at"] = .string(ExportedReport.timestamp(content.exportedAt))
        object["exported_by"] = .string("jqc \(AppVersion.current)")
        if let source = content.source { object["source"] = .string(source) }
        return .object(object)
    }

    /// The document as a file holds it: indented, keys sorted, ending in a newline.
    static func text(_ content: ExportedReport) -> String {
        let value = document(content)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Only a non-finite number can fail to encode; the canonical form writes it as null.
        guard let data = try? encoder.encode(value) else { return value.canonicalString() + "\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
