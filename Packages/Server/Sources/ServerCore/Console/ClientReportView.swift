import FieldTypes
import Models
import Scoring
import ServerStore

/// A report as a client reads it: the form, the building, the day, the
/// score and whether it passed, and the answers, without any private field
/// (its answer, photo or comment), the review, the issues or any id but the
/// report's short number.
struct ClientReportView {
    let view: ConsoleReportView
    let judgement: ConsoleJudgement
    let registry: FieldTypeRegistry

    var html: String {
        facts() + score() + answers()
            + "<p class=\"muted\"><a id=\"pdf-client\" href=\"\(ConsoleRoutes.consolePath)/reports/\(HTML.percent(view.report.serverID))/pdf\">Download as PDF</a></p>\n"
    }

    private var template: Template? { view.template }

    private func isShown(_ field: FieldDefinition) -> Bool {
        !field.isPrivate && !judgement.hidden.contains(field.id)
    }

    private func facts() -> String {
        var rows = [
            ("Report", HTML.escape(ConsoleLayout.shortID(view.report.serverID))),
            ("Building", HTML.escape(view.facility?.name ?? "")),
            ("Inspected", ConsoleLayout.day(view.report.acceptedAt)),
        ]
        if let area = view.area { rows.append(("Area", HTML.escape(area.name))) }
        return "<dl class=\"meta\" id=\"report-facts\">"
            + rows.map { "<div><dt>\($0.0)</dt><dd>\($0.1)</dd></div>" }.joined() + "</dl>\n"
    }

    private func score() -> String {
        guard let score = judgement.score, score.ratio != nil else {
            return
                "<section id=\"score\" class=\"score\"><p class=\"muted\">Nothing on this form is scored.</p></section>\n"
        }
        let failed = score.failedCritical || score.passed == false
        let outcome = failed ? " failed" : score.passed == true ? " passed" : ""
        let shownDeficiencies = score.deficiencies.compactMap { id in template?.schema.field(id) }.filter(isShown)
        var out =
            "<section id=\"score\" class=\"score\(outcome)\"><span class=\"percent\">\(HTML.escape(score.percentText))</span><div>"
            + "<p class=\"verdict\">\(ConsoleReportRenderer.verdict(score))</p>"
        if !shownDeficiencies.isEmpty {
            out +=
                "<p class=\"deficiencies-list\"><strong>To put right:</strong> "
                + shownDeficiencies.map { HTML.escape($0.displayName) }.joined(separator: ", ") + "</p>"
        }
        return out + "</div></section>\n"
    }

    private func answers() -> String {
        guard let template else { return "" }
        let deficient = Set(judgement.score?.deficiencies ?? [])
        var out = "<h2>Answers</h2>\n<section class=\"form-section\">\n"
        for field in template.schema.fields where isShown(field) {
            let type = registry.resolve(field)
            guard type.isAnswerable else {
                if type.startsSection {
                    out += "</section>\n<section class=\"form-section\"><h3>\(HTML.escape(field.label))</h3>\n"
                }
                continue
            }
            let mark = deficient.contains(field.id) ? " <span class=\"badge deficient\">to put right</span>" : ""
            out +=
                "<div class=\"field\(deficient.contains(field.id) ? " deficient" : "")\" data-field-id=\"\(HTML.attribute(field.id.rawValue))\">"
                + "<div class=\"label\">\(HTML.escape(field.displayName))\(mark)</div><div class=\"answer\">\(answer(field, type: type))</div></div>\n"
        }
        return out + "</section>\n"
    }

    private func answer(_ field: FieldDefinition, type: any FieldType) -> String {
        let value = view.answers[field.id]
        let photos = view.photos.filter { $0.fieldID == field.id.rawValue }
        var out = HTML.escape(type.display(value, for: field, style: ConsoleReportRenderer.style))
        if type.takesPhotos || !photos.isEmpty {
            out = photos.isEmpty ? out : ""
            for photo in photos {
                let url =
                    "\(ConsoleRoutes.consolePath)/reports/\(HTML.percent(view.report.serverID))/photos/\(photo.localID.uuidString.lowercased())"
                out +=
                    "<figure class=\"photo\"><a class=\"photo-link\" href=\"\(url)\"><img class=\"photo-thumb\" src=\"\(url)\" alt=\"photo\" loading=\"lazy\"></a></figure>"
            }
        }
        return out
    }
}
