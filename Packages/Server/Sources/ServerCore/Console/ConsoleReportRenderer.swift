import FieldTypes
import Foundation
import Models
import Scoring
import ServerStore

/// The HTML of a report's page. Every answer, label, comment and name is
/// escaped; answers are shown by their field type, as the device shows them.
struct ConsoleReportRenderer {
    let view: ConsoleReportView
    let judgement: ConsoleJudgement
    let registry: FieldTypeRegistry
    let viewer: ConsoleViewer?
    let printable: Bool
    /// A refused decision's form, so what was typed is shown again.
    let form: ConsoleForm

    /// Answers as the console shows them: Unicode (stars, ticks), no colour.
    static let style = TerminalStyle(color: false, unicode: true)

    private var serverID: String { view.report.serverID }
    private var isCurrent: Bool { view.revision.revision == view.report.currentRevision }
    /// Whether this page carries the decision form.
    private var decides: Bool { !printable && isCurrent && (viewer?.isSupervisor ?? false) }

    var html: String {
        var out = facts() + score() + answers() + otherPhotos() + issues() + actions()
        if !printable { out += changes(from: view.previous, heading: true) }
        out += events()
        if decides { out += decisionForm() }
        if !printable {
            let base = "\(ConsoleRoutes.consolePath)/reports/\(HTML.percent(serverID))"
            out +=
                "<p class=\"muted\" id=\"report-documents\"><a href=\"\(base)/print\">Printable view</a> · "
                + "<a id=\"pdf-internal\" href=\"\(base)/pdf\">PDF (internal)</a> · "
                + "<a id=\"pdf-client\" href=\"\(base)/pdf?variant=client\">PDF for the client</a></p>\n"
        }
        return out
    }

    // MARK: Facts and review

    private func facts() -> String {
        let report = view.report
        var rows: [(String, String)] = [
            ("Report", "<code>\(HTML.escape(report.serverID))</code>"),
            (
                "Site",
                HTML.escape(view.facility?.name ?? report.facilityID)
                    + (view.area.map { " · " + HTML.escape($0.name) } ?? "")
            ),
            ("Form", HTML.escape(view.template?.name ?? report.templateID)),
            ("Inspector", HTML.escape(view.owner?.displayName ?? report.ownerID)),
            (
                "Completed",
                report.completedAtDevice.map { "\(ConsoleLayout.time($0)) <span class=\"muted\">(device clock)</span>" }
                    ?? "<span class=\"muted\">not given by the device</span>"
            ),
            ("Received", ConsoleLayout.time(report.acceptedAt)),
            (
                "Revision",
                isCurrent
                    ? "\(view.revision.revision) (current)"
                    : "\(view.revision.revision) of \(report.currentRevision) · \(ConsoleLayout.reportLink(serverID, text: "see the current one"))"
            ),
        ]
        if report.followUpRequired { rows.append(("Follow-up", "<span class=\"flag\">required</span>")) }
        if let parent = report.parentServerID { rows.append(("Re-inspects", ConsoleLayout.reportLink(parent))) }
        let review = view.review
        var reviewText = "<span id=\"review-state\">\(ConsoleLayout.stateBadge(review.state))</span>"
        if let by = review.decidedBy {
            reviewText +=
                " by \(HTML.escape(by.displayName)), \(ConsoleLayout.time(review.decidedAt)), on revision \(review.revision)"
        }
        rows.append(("Review", reviewText))
        var out =
            "<dl class=\"meta\">" + rows.map { "<div><dt>\($0.0)</dt><dd>\($0.1)</dd></div>" }.joined() + "</dl>\n"
        if let comment = review.comment {
            out += "<p class=\"review-comment\" id=\"review-comment\">\(HTML.escape(comment))</p>\n"
        }
        return out
    }

    // MARK: Score

    private func score() -> String {
        guard let template = view.template else {
            return
                "<section id=\"score\" class=\"score\"><p>The form <code>\(HTML.escape(view.report.templateID))</code> is no longer on the server; the answers are shown as stored.</p></section>\n"
        }
        guard let score = judgement.score, score.ratio != nil else {
            return
                "<section id=\"score\" class=\"score\"><p class=\"muted\">Nothing on this form is scored.</p></section>\n"
        }
        let failed = score.failedCritical || score.passed == false
        let outcome = failed ? " failed" : score.passed == true ? " passed" : ""
        var out =
            "<section id=\"score\" class=\"score\(outcome)\">"
            + "<span class=\"percent\">\(HTML.escape(score.percentText))</span><div>"
            + "<p class=\"verdict\">\(Self.verdict(score))</p>"
            + "<p>\(String(format: "%.1f", score.earned)) of \(String(format: "%.1f", score.possible)) points</p>"
        if failed {
            let labels = score.criticalFailures.map { id in
                HTML.escape(template.schema.fields.first { $0.id == id }?.displayName ?? "field \(id.rawValue)")
            }
            out +=
                "<p class=\"critical-failures\"><strong>Critical failure:</strong> \(labels.joined(separator: ", "))</p>"
        }
        if !score.deficiencies.isEmpty {
            let labels = score.deficiencies.map { id in
                HTML.escape(template.schema.fields.first { $0.id == id }?.displayName ?? "field \(id.rawValue)")
            }
            out +=
                "<p class=\"deficiencies-list\"><strong>\(labels.count) deficienc\(labels.count == 1 ? "y" : "ies"):</strong> "
                + "\(labels.joined(separator: ", "))</p>"
        }
        out += "</div></section>\n"
        out +=
            "<details class=\"breakdown\"\(printable || failed ? " open" : "")><summary>Score breakdown</summary><table>"
            + "<thead><tr><th>Field</th><th class=\"num\">Weight</th><th>Outcome</th><th class=\"num\">Points</th></tr></thead><tbody>"
        for line in score.fields {
            if case .notScoreable = line.outcome { continue }
            let (text, cls) = Self.outcome(line)
            out +=
                "<tr class=\"\(cls)\"><td>\(HTML.escape(line.label))\(line.critical ? " <span class=\"badge critical\">critical</span>" : "")</td>"
                + "<td class=\"num\">\(String(format: "%g", line.weight))</td><td class=\"outcome \(cls)\">\(HTML.escape(text))</td>"
                + "<td class=\"num\">\(line.counts ? String(format: "%.1f / %.1f", line.earned, line.possible) : "–")</td></tr>"
        }
        out += "</tbody></table></details>\n"
        return out
    }

    /// The score's headline: passed or failed against the template's pass
    /// mark, a critical failure, or only "Score" when the template sets none.
    static func verdict(_ score: ScoreReport) -> String {
        let mark = score.passThreshold.map { " (pass mark \(Self.share($0)))" } ?? ""
        if score.failedCritical { return "Failed: a critical field failed" + mark }
        switch score.passed {
        case true?: return "Passed" + mark
        case false?: return "Failed: below the pass mark" + mark
        case nil: return "Score"
        }
    }

    /// A share as a percentage: `80%`, `87.5%`.
    static func share(_ value: Double) -> String {
        let tenths = (value * 1000).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths))%" : "\(tenths)%"
    }

    private static func outcome(_ line: FieldContribution) -> (String, String) {
        if line.hidden { return ("hidden by a condition", "hidden") }
        switch line.outcome {
        case .notScoreable: return ("not scored", "")
        case .unanswered: return ("unanswered", "")
        case .notApplicable: return ("N/A", "")
        case .unreadable(let why): return ("unreadable: \(why)", "failed")
        case .scored(let fraction, let passed):
            return (
                passed
                    ? String(format: "%.0f%%", fraction * 100)
                    : "deficient (\(String(format: "%.0f%%", fraction * 100)))",
                passed ? "passed" : "failed"
            )
        }
    }

    // MARK: Answers

    private func answers() -> String {
        guard let template = view.template else {
            var out = "<section class=\"form-section\"><h2>Answers</h2>"
            for id in view.answers.answeredIDs {
                out +=
                    "<div class=\"field\" data-field-id=\"\(HTML.attribute(id.rawValue))\"><div class=\"label\">field \(HTML.escape(id.rawValue))</div>"
                    + "<div class=\"answer\"><code>\(HTML.escape(view.answers[id]?.canonicalString() ?? ""))</code></div></div>"
            }
            return out + "</section>\n"
        }
        var out = "<h2>Answers</h2>\n<section class=\"form-section\">\n"
        var sectionOpen = true
        var fieldsInSection = 0
        for field in template.schema.fields {
            let type = registry.resolve(field)
            guard type.isAnswerable else {
                if type.startsSection {
                    if sectionOpen && fieldsInSection == 0 && out.hasSuffix("<section class=\"form-section\">\n") {
                        out.removeLast("<section class=\"form-section\">\n".count)
                    } else if sectionOpen {
                        out += "</section>\n"
                    }
                    out += "<section class=\"form-section\"><h3>\(HTML.escape(field.label))</h3>\n"
                    sectionOpen = true
                    fieldsInSection = 0
                } else {
                    out += "<p class=\"note\">\(HTML.escape(field.label))</p>\n"
                }
                continue
            }
            fieldsInSection += 1
            out += fieldRow(field, type: type)
        }
        if sectionOpen { out += "</section>\n" }
        return out
    }

    private func fieldRow(_ field: FieldDefinition, type: any FieldType) -> String {
        let id = field.id.rawValue
        let hidden = judgement.hidden.contains(field.id)
        var marks = ""
        if field.required { marks += " <span class=\"req\" title=\"required\">*</span>" }
        if field.critical { marks += " <span class=\"badge critical\">critical</span>" }
        let deficient = judgement.score?.deficiencies.contains(field.id) ?? false
        if deficient { marks += " <span class=\"badge deficient\">deficient</span>" }
        var out =
            "<div class=\"field\(hidden ? " hidden-field" : "")\(deficient ? " deficient" : "")\" data-field-id=\"\(HTML.attribute(id))\">"
            + "<div class=\"label\">\(HTML.escape(field.displayName))\(marks)</div><div class=\"answer\">"
        out +=
            hidden
            ? "<span class=\"muted\">hidden by a condition: not asked, not scored</span>" : answer(field, type: type)
        for comment in view.review.fieldComments where comment.fieldID == id {
            out += "<p class=\"field-comment\">\(HTML.escape(comment.comment))</p>"
        }
        if decides {
            let name = "field_comment:\(id)"
            out +=
                "<textarea class=\"field-comment-box\" form=\"decision\" name=\"\(HTML.attribute(name))\" rows=\"1\" maxlength=\"\(ReviewRoutes.longestComment)\" "
                + "placeholder=\"Comment on this field (optional)\" aria-label=\"Comment on \(HTML.attribute(field.displayName))\">"
                + HTML.escape(form.raw(name) ?? "") + "</textarea>"
        }
        return out + "</div></div>\n"
    }

    private func answer(_ field: FieldDefinition, type: any FieldType) -> String {
        let value = view.answers[field.id]
        let shown = type.display(value, for: field, style: Self.style)
        guard let value, !type.isBlank(value), type.validate(value, for: field) == nil else {
            // Photos uploaded for a photo field whose answer does not list them yet are still shown.
            let attached = view.photos.filter { $0.fieldID == field.id.rawValue }.map {
                $0.localID.uuidString.lowercased()
            }
            if type.takesPhotos && !attached.isEmpty { return photoStrip(attached) }
            return "<span class=\"muted\">\(HTML.escape(shown))</span>"
        }
        switch type.layout(value, for: field) {
        case .line:
            return HTML.escape(shown)
        case .text(let text):
            return "<span class=\"text\">\(HTML.escape(text))</span>"
        case .list(let items):
            return "<ul>" + items.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"
        case .table(let columns, let rows):
            return "<table class=\"answer-table\"><thead><tr>" + columns.map { "<th>\(HTML.escape($0))</th>" }.joined()
                + "</tr></thead><tbody>"
                + rows.map { "<tr>" + $0.map { "<td>\(HTML.escape($0))</td>" }.joined() + "</tr>" }.joined()
                + "</tbody></table>"
        case .photos(var ids, let caption):
            for photo in view.photos
            where photo.fieldID == field.id.rawValue && !ids.contains(photo.localID.uuidString.lowercased()) {
                ids.append(photo.localID.uuidString.lowercased())
            }
            return (caption.map { HTML.escape($0) } ?? "") + photoStrip(ids)
        case .signature(let signer, let time, let fingerprint):
            var out =
                "Signed by <strong>\(HTML.escape(signer))</strong> at \(HTML.escape(time)) <span class=\"muted\">(device time)</span>, "
                + "content hash <code class=\"hash\">\(HTML.escape(fingerprint))</code>"
            if let covered = type.coveredRevision(value) {
                out +=
                    " <span class=\"covers\">covering revision \(covered) only: the answers were changed since by someone else</span>"
            }
            return out
        }
    }

    /// Thumbnails of photos by local id, each opening the full photo; one not uploaded yet says so.
    private func photoStrip(_ ids: [String]) -> String {
        var out = "<div class=\"photos\">"
        for id in ids {
            if let photo = view.photos.first(where: { $0.localID.uuidString.lowercased() == id.lowercased() }) {
                let url =
                    "\(ConsoleRoutes.consolePath)/reports/\(HTML.percent(serverID))/photos/\(photo.localID.uuidString.lowercased())"
                out +=
                    "<figure class=\"photo\"><a class=\"photo-link\" href=\"\(url)\"><img class=\"photo-thumb\" src=\"\(url)\" alt=\"photo\" loading=\"lazy\"></a>"
                    + "<figcaption>\(String(format: "%.0f", Double(photo.byteSize) / 1024)) KB</figcaption></figure>"
            } else {
                out += "<figure class=\"photo missing\"><p>not uploaded yet</p></figure>"
            }
        }
        return out + "</div>"
    }

    /// Photos shown neither at a photo field nor with an issue.
    private func otherPhotos() -> String {
        let fieldIDs = Set(
            (view.template?.schema.fields ?? []).filter {
                registry.resolve($0).takesPhotos && !judgement.hidden.contains($0.id)
            }.map(\.id.rawValue))
        let issuePhotos = Set(view.issues.flatMap(\.photoLocalIDs))
        let loose = view.photos.filter { photo in
            !(photo.fieldID.map(fieldIDs.contains) ?? false) && photo.issueLocalID == nil
                && !issuePhotos.contains(photo.localID)
        }
        guard !loose.isEmpty else { return "" }
        return
            "<section><h2>Other photos</h2>\(photoStrip(loose.map { $0.localID.uuidString.lowercased() }))</section>\n"
    }

    // MARK: Issues

    private func issues() -> String {
        let issues = view.issues
        guard !issues.isEmpty else {
            return "<section id=\"issues\"><h2>Issues</h2><p class=\"muted\">No issues flagged.</p></section>\n"
        }
        var out = "<section id=\"issues\"><h2>Issues (\(issues.count))</h2>\n"
        for issue in issues {
            let attached = view.photos.filter { $0.issueLocalID == issue.localID }.map(\.localID)
            let ids = (issue.photoLocalIDs + attached.filter { !issue.photoLocalIDs.contains($0) }).map {
                $0.uuidString.lowercased()
            }
            out +=
                "<div class=\"issue\"><p><span class=\"badge severity severity-\(issue.severity.rawValue)\">\(HTML.escape(issue.severity.rawValue))</span> "
                + "<span class=\"description\">\(HTML.escape(issue.description))</span></p>\(ids.isEmpty ? "" : photoStrip(ids))</div>\n"
        }
        return out + "</section>\n"
    }

    /// The corrective actions made from the report (none: no section).
    private func actions() -> String {
        guard !view.actions.isEmpty else { return "" }
        var out = "<section id=\"report-actions\"><h2>Corrective actions (\(view.actions.count))</h2><ul>"
        for action in view.actions {
            out +=
                "<li>\(ConsoleActionView.link(action)) \(ConsoleActionView.badge(action.state)) "
                + "<span class=\"muted\">\(action.severity.rawValue)</span></li>"
        }
        return out + "</ul></section>\n"
    }

    // MARK: Changes and events

    /// What changed from `earlier` to the shown revision, field by field.
    func changes(from earlier: StoredRevision?, heading: Bool) -> String {
        var out =
            heading
            ? "<section id=\"changes\"><h2>What changed since the previous revision</h2>\n"
            : "<section id=\"changes\">\n"
        guard let earlier else {
            return out + "<p class=\"muted\">This is the first revision.</p></section>\n"
        }
        let before = ConsoleReportView.answers(of: earlier)
        let after = view.answers
        let fields = view.template?.schema.fields ?? []
        var ids = fields.map(\.id)
        for id in Set(before.answeredIDs + after.answeredIDs).sorted() where !ids.contains(id) { ids.append(id) }
        var rows = ""
        for id in ids where before[id] != after[id] {
            let field = fields.first { $0.id == id }
            let shown = { (value: JSONValue?) -> String in
                guard let field else { return value?.canonicalString() ?? "unanswered" }
                return self.registry.display(field, value, style: Self.style)
            }
            rows +=
                "<tr><td>\(HTML.escape(field?.displayName ?? "field \(id.rawValue)"))</td>"
                + "<td class=\"before\">\(HTML.escape(shown(before[id])))</td><td class=\"after\">\(HTML.escape(shown(after[id])))</td></tr>"
        }
        if earlier.issuesJSON != view.revision.issuesJSON {
            rows += "<tr><td>Issues</td><td class=\"before\" colspan=\"2\">the issues changed</td></tr>"
        }
        if rows.isEmpty {
            return out + "<p class=\"muted\">No answer changed from revision \(earlier.revision).</p></section>\n"
        }
        out +=
            "<table><thead><tr><th>Field</th><th>Revision \(earlier.revision)</th><th>Revision \(view.revision.revision)</th></tr></thead><tbody>"
        return out + rows + "</tbody></table></section>\n"
    }

    private func events() -> String {
        guard !view.events.isEmpty else {
            return "<section id=\"events\"><h2>Events</h2><p class=\"muted\">No events yet.</p></section>\n"
        }
        var out = "<section id=\"events\"><h2>Events</h2><ol class=\"events\">\n"
        for event in view.events {
            out +=
                "<li><span class=\"when\">\(ConsoleLayout.time(event.at))</span> <strong>\(HTML.escape(event.actor.displayName))</strong> "
                + "\(HTML.escape(Self.eventWords(event.kind))) revision \(event.revision)"
            if let comment = event.comment { out += ": <q>\(HTML.escape(comment))</q>" }
            for item in event.fieldComments ?? [] {
                let label =
                    view.template?.schema.fields.first { $0.id.rawValue == item.fieldID }?.displayName
                    ?? "field \(item.fieldID)"
                out += "<br><span class=\"muted\">on \(HTML.escape(label)):</span> \(HTML.escape(item.comment))"
            }
            out += "</li>\n"
        }
        return out + "</ol></section>\n"
    }

    private static func eventWords(_ kind: String) -> String {
        switch kind {
        case "accepted": return "submitted"
        case "amended": return "amended it, making"
        case "merged": return "amended it, merged with the server's changes, making"
        case "edited": return "edited it on the server, making"
        case "approved": return "approved"
        case "returned": return "returned for changes"
        case "rejected": return "rejected"
        default: return kind
        }
    }

    // MARK: Decision

    private func decisionForm() -> String {
        guard let viewer else { return "" }
        return """
            <form id="decision" class="card" method="post" action="\(ConsoleRoutes.consolePath)/reports/\(HTML.percent(serverID))/review">
            <h2>Decision on revision \(view.report.currentRevision)</h2>
            \(ConsoleLayout.csrfField(viewer.csrf))
            <input type="hidden" name="revision" value="\(view.report.currentRevision)">
            <label>Comment for the inspector <textarea name="comment" rows="3" maxlength="\(ReviewRoutes.longestComment)">\(HTML.escape(form.raw("comment") ?? ""))</textarea></label>
            <p class="muted">To return or reject, say why: a comment here or on at least one field above.</p>
            <div class="buttons">
            <button type="submit" name="decision" value="approve" class="approve">Approve</button>
            <button type="submit" name="decision" value="return" class="return">Return for changes</button>
            <button type="submit" name="decision" value="reject" class="reject">Reject</button>
            </div>
            </form>

            """
    }
}
