import Foundation
import FieldTypes
import JQCCore
import Models
import Scoring

/// The HTML export: one self-contained page a supervisor prints. No outside
/// CSS, script, font or image: photos are embedded as `data:` URIs, each read
/// from the photo store and base64-encoded chunk by chunk straight into the
/// output, so at most one chunk of one photo is in memory at a time.
///
/// Every piece of text that comes from a template, an answer or an issue is
/// escaped (`& < > " '`).
struct HTMLExport {
    let content: ExportedReport
    let sink: ExportSink

    /// Answers read as on a terminal that can show Unicode (stars, ticks), without colour codes.
    static let answerStyle = TerminalStyle(color: false, unicode: true)
    /// Bytes of a photo read per step: a multiple of 3, so each chunk encodes to base64 on its own.
    private static let photoChunk = 3 * 16 * 1024

    /// Writes the page.
    static func write(_ content: ExportedReport, to sink: ExportSink) throws(AppError) {
        try HTMLExport(content: content, sink: sink).page()
    }

    // MARK: - The page

    private func page() throws(AppError) {
        let report = content.report
        let title =
            "\(content.template?.name ?? "Template \(report.templateID)") \u{2014} \(content.facilityName ?? report.facilityID)"
        try emit(
            """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="jqc \(AppVersion.current)">
            <title>\(esc(title))</title>
            <style>\(Self.css)</style>
            </head>
            <body>
            <main>

            """)
        try header()
        try scoreSummary()
        try breakdown()
        try answers()
        try issues()
        try otherPhotos()
        try emit(
            """
            <footer>Exported by jqc \(AppVersion.current) at \(esc(ExportedReport.timestamp(content.exportedAt))) (device time). \
            Times on this page are the inspecting device's clock, in UTC.</footer>
            </main>
            </body>
            </html>

            """)
    }

    private func header() throws(AppError) {
        let report = content.report
        var heading = esc(content.template?.name ?? "Template \(report.templateID)")
        if let version = content.template?.version { heading += " <span class=\"version\">v\(version)</span>" }
        try emit("<header>\n<h1>\(heading)</h1>\n")
        var place = "<strong>\(esc(content.facilityText))</strong>"
        if let area = content.areaText { place += " &middot; \(esc(area))" }
        try emit("<p class=\"place\">\(place)</p>\n<dl class=\"meta\">\n")
        var rows: [(String, String)] = [
            ("Report", "<code>\(esc(content.localID))</code>"),
            ("State", "<span class=\"state\">\(esc(report.state.rawValue))</span>"),
        ]
        if let server = report.serverID { rows.append(("Server id", "<code>\(esc(server))</code>")) }
        if let assignment = report.assignmentID { rows.append(("Assignment", esc(assignment))) }
        if let inspector = content.inspector { rows.append(("Inspector", esc(inspector))) }
        rows.append(
            (
                "Last saved",
                "\(esc(ExportedReport.timestamp(report.updatedAtDevice))) <span class=\"muted\">device time</span>"
            ))
        if let completed = report.completedAtDevice {
            rows.append(
                ("Completed", "\(esc(ExportedReport.timestamp(completed))) <span class=\"muted\">device time</span>"))
        }
        if let parent = report.parentLocalID {
            var text = "re-inspection of <code>\(esc(parent.uuidString.lowercased()))</code>"
            if let server = report.parentServerID { text += " (server id <code>\(esc(server))</code>)" }
            rows.append(("Parent report", text))
        }
        rows.append(
            (
                "Follow-up",
                report.followUpRequired ? "<strong class=\"flag\">Follow-up required</strong>" : "not required"
            ))
        if let error = report.lifecycle.lastError {
            rows.append(("Last error", "\(esc(error.message)) <code>\(esc(error.code))</code>"))
        }
        rows += reviewRows()
        for (term, value) in rows { try emit("<div><dt>\(term)</dt><dd>\(value)</dd></div>\n") }
        try emit("</dl>\n</header>\n")
    }

    /// The supervisor's review (contract 1.1): the decision, who and when, the comment. Server text, escaped.
    private func reviewRows() -> [(String, String)] {
        let report = content.report
        guard let state = content.presenter.reviewState(report) else { return [] }
        var decision = "<strong class=\"review \(esc(state.rawValue))\">\(esc(state.phrase))</strong>"
        if let review = report.lifecycle.review {
            decision += " (revision \(review.revision))"
            if let by = review.decidedBy { decision += " by \(esc(by.displayName.isEmpty ? by.id : by.displayName))" }
            if let at = review.decidedAt { decision += " at \(esc(at)) <span class=\"muted\">server time</span>" }
        }
        var rows = [("Review", decision)]
        if let comment = report.lifecycle.review?.comment, !comment.isEmpty {
            rows.append(("Supervisor's comment", "<span class=\"text\">\(esc(comment))</span>"))
        }
        return rows
    }

    /// The supervisor's comments on one field, under its answer.
    private func fieldComments(_ id: FieldID) throws(AppError) {
        for comment in content.report.lifecycle.review?.comments(on: id) ?? [] {
            try emit(
                "<p class=\"review-comment\"><span class=\"muted\">Supervisor:</span> <span class=\"text\">\(esc(comment))</span></p>"
            )
        }
    }

    private func scoreSummary() throws(AppError) {
        guard let score = content.score else {
            try emit(
                "<section class=\"score\"><p>The template <code>\(esc(content.report.templateID))</code> is not on this device, so the report is not scored here; its answers are shown as stored.</p></section>\n"
            )
            return
        }
        let failed = score.verdict == .failedCritical || score.passed == false
        var verdict: String
        switch score.verdict {
        case .notScored: verdict = "Not scored: nothing scoreable was answered"
        case .scored:
            verdict = score.passed == true ? "Passed" : score.passed == false ? "FAILED: below the pass mark" : "Scored"
        case .failedCritical:
            let names = score.criticalFailures.map { id in label(of: id) }
            verdict = "FAILED: critical field\(names.count == 1 ? "" : "s") failed: " + names.joined(separator: ", ")
        }
        if let threshold = score.passThreshold { verdict += " (pass mark \(ReportPresenter.percent(threshold)))" }
        let deficiencies =
            score.deficiencies.isEmpty
            ? ""
            : "<p class=\"deficiencies\">Deficiencies (\(score.deficiencies.count)): "
                + score.deficiencies.map { esc(label(of: $0)) }.joined(separator: ", ") + "</p>"
        try emit(
            """
            <section class="score\(failed ? " failed" : score.passed == true ? " passed" : "")">
            <div class="percent">\(esc(score.percentText))</div>
            <div><p class="verdict">\(esc(verdict))</p>
            <p class="muted">\(esc(ReportPresenter.number(score.earned))) of \(esc(ReportPresenter.number(score.possible))) points over the answered scored fields</p>\(deficiencies)</div>
            </section>

            """)
    }

    private func breakdown() throws(AppError) {
        guard let score = content.score else { return }
        let scored = score.fields.filter { $0.outcome != .notScoreable }
        guard !scored.isEmpty else { return }
        try emit(
            """
            <section>
            <h2>Score breakdown</h2>
            <table class="breakdown">
            <thead><tr><th>Field</th><th>Outcome</th><th class="num">Earned / possible</th><th class="num">Weight</th><th>Critical</th></tr></thead>
            <tbody>

            """)
        for field in scored {
            let outcome = ReportPresenter.outcomeName(field).replacingOccurrences(of: "_", with: " ")
            let failedCritical = field.critical && score.criticalFailures.contains(field.fieldID)
            let points =
                field.counts
                ? "\(ReportPresenter.number(field.earned)) / \(ReportPresenter.number(field.possible))" : "\u{2013}"
            try emit(
                """
                <tr\(failedCritical ? " class=\"failed\"" : "")><td>\(esc(field.label.isEmpty ? "field \(field.fieldID)" : field.label)) \
                <span class="muted">[\(esc(field.fieldID.rawValue))]</span></td>\
                <td class="outcome \(esc(ReportPresenter.outcomeName(field)))">\(esc(outcome))</td>\
                <td class="num">\(esc(points))</td><td class="num">\(esc(ReportPresenter.number(field.weight)))</td>\
                <td>\(field.critical ? "critical" : "")</td></tr>

                """)
        }
        try emit("</tbody>\n</table>\n</section>\n")
    }

    // MARK: - Answers

    private func answers() throws(AppError) {
        try emit("<section class=\"answers\">\n<h2>Answers</h2>\n")
        guard let template = content.template else {
            for id in content.report.answers.answeredIDs {
                let raw = content.report.answers[id]?.canonicalString() ?? ""
                try emit(
                    "<div class=\"field\"><div class=\"label\">field \(esc(id.rawValue))</div><div class=\"answer\"><code>\(esc(raw))</code></div></div>\n"
                )
            }
            try emit("</section>\n")
            return
        }
        for field in template.schema.fields {
            let type = content.registry.resolve(field)
            guard type.isAnswerable else {
                if type.startsSection {
                    try emit("<h3>\(esc(field.label))</h3>\n")
                } else {
                    try emit("<p class=\"note\">\(esc(field.label))</p>\n")
                }
                continue
            }
            var marks = ""
            if field.required { marks += " <span class=\"req\" title=\"required\">*</span>" }
            if field.critical { marks += " <span class=\"badge critical\">critical</span>" }
            if content.report.mergedFields.contains(field.id.rawValue) {
                marks +=
                    " <span class=\"badge merged\" title=\"merged in from the server's revision\">from the server</span>"
            }
            try emit(
                "<div class=\"field\"><div class=\"label\">\(esc(field.displayName))\(marks)</div><div class=\"answer\">"
            )
            if content.hidden.contains(field.id) {
                try emit("<span class=\"muted hidden-by-condition\">\(esc(ReportPresenter.hiddenText))</span>")
            } else {
                try answer(field, type: type)
            }
            try fieldComments(field.id)
            try emit("</div></div>\n")
        }
        try emit("</section>\n")
    }

    private func answer(_ field: FieldDefinition, type: any FieldType) throws(AppError) {
        let value = content.report.answers[field.id]
        let shown = type.display(value, for: field, style: Self.answerStyle)
        guard let value, !type.isBlank(value), type.validate(value, for: field) == nil else {
            try emit("<span class=\"muted\">\(esc(shown))</span>")
            return
        }
        switch type.layout(value, for: field) {
        case .line:
            // The display `show` gives (stars, ticks), not the plain-text layout.
            try emit(esc(shown))
        case .text(let text):
            try emit("<span class=\"text\">\(esc(text))</span>")
        case .list(let items):
            try emit("<ul>" + items.map { "<li>\(esc($0))</li>" }.joined() + "</ul>")
        case .table(let columns, let rows):
            try emit(
                "<table class=\"answer-table\"><thead><tr>" + columns.map { "<th>\(esc($0))</th>" }.joined()
                    + "</tr></thead><tbody>"
                    + rows.map { "<tr>" + $0.map { "<td>\(esc($0))</td>" }.joined() + "</tr>" }.joined()
                    + "</tbody></table>")
        case .photos(var ids, let caption):
            // Photos attached to the field whose id the answer does not list yet are shown too.
            for photo in content.photos
            where photo.fieldID == field.id && !ids.contains(photo.localID.uuidString.lowercased()) {
                ids.append(photo.localID.uuidString.lowercased())
            }
            if let caption { try emit(esc(caption)) }
            try emit("<div class=\"photos\">")
            for id in ids { try photo(id: id) }
            try emit("</div>")
        case .signature(let signer, let time, let fingerprint):
            try emit(
                "Signed by <strong>\(esc(signer))</strong> at \(esc(time)) <span class=\"muted\">(device time)</span>, content hash <code class=\"hash\">\(esc(fingerprint))</code>"
            )
            if let covered = type.coveredRevision(value) {
                try emit(
                    " <span class=\"covers\">covering revision \(covered) only: the answers were changed since by someone else</span>"
                )
            }
        }
    }

    // MARK: - Issues and photos

    private func issues() throws(AppError) {
        guard !content.issues.isEmpty else {
            try emit("<section>\n<h2>Issues</h2>\n<p class=\"muted\">No issues flagged.</p>\n</section>\n")
            return
        }
        try emit("<section>\n<h2>Issues (\(content.issues.count))</h2>\n")
        for issue in content.issues {
            let severity = issue.severity.rawValue
            try emit(
                """
                <div class="issue"><p><span class="badge severity-\(esc(severity))">\(esc(severity.uppercased()))</span> \
                <span class="text">\(esc(issue.description))</span> <span class="muted">issue <code>\(esc(String(issue.localID.uuidString.lowercased().prefix(8))))</code></span></p>
                """)
            let photos = content.photos(ofIssue: issue)
            if !photos.isEmpty {
                try emit("<div class=\"photos\">")
                for photo in photos { try figure(photo) }
                try emit("</div>")
            }
            try emit("</div>\n")
        }
        try emit("</section>\n")
    }

    /// Photos of the report that belong to no field answer and no issue.
    private func otherPhotos() throws(AppError) {
        var shown = Set<UUID>()
        for field in content.template?.schema.fields ?? [] {
            shown.formUnion(content.photos.filter { $0.fieldID == field.id }.map(\.localID))
            let type = content.registry.resolve(field)
            guard let answer = content.report.answers[field.id], !type.isBlank(answer),
                type.validate(answer, for: field) == nil,
                case .photos(let ids, _) = type.layout(answer, for: field)
            else { continue }
            shown.formUnion(ids.compactMap(UUID.init(uuidString:)))
        }
        let rest = content.photos.filter { $0.issueLocalID == nil && !shown.contains($0.localID) }
        guard !rest.isEmpty else { return }
        try emit("<section>\n<h2>Other photos (\(rest.count))</h2>\n<div class=\"photos\">")
        for photo in rest { try figure(photo) }
        try emit("</div>\n</section>\n")
    }

    private func photo(id: String) throws(AppError) {
        if let photo = content.photo(id) {
            try figure(photo)
        } else {
            try missing(id)
        }
    }

    private func figure(_ photo: Photo) throws(AppError) {
        let id = photo.localID.uuidString.lowercased()
        guard let url = content.file(of: photo), let handle = try? FileHandle(forReadingFrom: url) else {
            try missing(id)
            return
        }
        defer { try? handle.close() }
        try emit("<figure class=\"photo\"><img alt=\"photo \(esc(id))\" src=\"data:image/jpeg;base64,")
        var carry = Data()
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: Self.photoChunk) ?? Data() } catch {
                throw AppError.failure(
                    .photoUnreadable,
                    "Cannot read photo \(id) at '\(url.path)' (\(error.localizedDescription)); check the profile's photo folder."
                )
            }
            carry.append(chunk)
            let whole = chunk.isEmpty ? carry.count : carry.count - carry.count % 3
            if whole > 0 {
                try sink.write(bytes: Array(carry.prefix(whole).base64EncodedData()))
                carry = Data(carry.dropFirst(whole))
            }
            if chunk.isEmpty { break }
        }
        try emit(
            "\"><figcaption>photo <code>\(esc(String(id.prefix(8))))</code> &middot; \(esc(ReportPresenter.bytes(photo.byteSize))) &middot; \(esc(photo.uploadState.rawValue.lowercased()))</figcaption></figure>"
        )
    }

    private func missing(_ id: String) throws(AppError) {
        try emit("<figure class=\"photo missing\"><p>photo \(esc(id.lowercased())) is not on this device</p></figure>")
    }

    // MARK: - Helpers

    private func emit(_ html: String) throws(AppError) {
        try sink.write(html)
    }

    private func label(of id: FieldID) -> String {
        content.template?.schema.field(id)?.displayName ?? "field \(id)"
    }

    private func esc(_ text: String) -> String { Self.escape(text) }

    /// Text made safe for HTML element content and quoted attribute values.
    static func escape(_ text: String) -> String { HTMLText.escape(text) }

    // MARK: - Style

    private static let css = """

        :root { color-scheme: light; }
        * { box-sizing: border-box; }
        body { margin: 0; background: #f3f4f6; color: #111827; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
        main { max-width: 960px; margin: 24px auto; background: #fff; padding: 32px 40px; border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
        h1 { margin: 0 0 4px; font-size: 26px; }
        h1 .version { font-size: 14px; font-weight: normal; color: #6b7280; }
        h2 { margin: 28px 0 10px; font-size: 19px; border-bottom: 2px solid #e5e7eb; padding-bottom: 4px; }
        h3 { margin: 22px 0 8px; font-size: 16px; color: #374151; text-transform: uppercase; letter-spacing: .04em; }
        .place { margin: 0 0 12px; font-size: 16px; }
        dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 3px 16px; margin: 0; }
        dl.meta div { display: contents; }
        dt { color: #6b7280; }
        dd { margin: 0; overflow-wrap: anywhere; }
        code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .88em; }
        .hash { overflow-wrap: anywhere; }
        .muted { color: #6b7280; }
        .flag { color: #b45309; }
        .badge.merged { background: #e0f2fe; color: #075985; }
        .review.returned, .review.rejected { color: #b91c1c; }
        .review.approved { color: #065f46; }
        .review-comment { margin: 6px 0 0; padding: 4px 8px; border-left: 3px solid #b91c1c; background: #fef2f2; }
        .score { display: flex; align-items: center; gap: 24px; margin: 24px 0 0; padding: 16px 20px; border: 2px solid #d1d5db; border-radius: 8px; }
        .score .percent { font-size: 56px; font-weight: 700; line-height: 1; color: #1f2937; }
        .score.passed { border-color: #6ee7b7; }
        .score.passed .percent, .score.passed .verdict { color: #065f46; }
        .score .deficiencies { color: #b91c1c; }
        .score .verdict { margin: 0; font-size: 18px; font-weight: 600; }
        .score p { margin: 2px 0; }
        .score.failed { border-color: #b91c1c; }
        .score.failed .percent, .score.failed .verdict, tr.failed td { color: #b91c1c; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid #e5e7eb; vertical-align: top; }
        th { background: #f9fafb; font-weight: 600; }
        .num { text-align: right; white-space: nowrap; }
        td.outcome.passed { color: #065f46; }
        td.outcome.failed { color: #b91c1c; font-weight: 600; }
        .field { display: grid; grid-template-columns: minmax(180px, 32%) 1fr; gap: 12px; padding: 7px 0; border-bottom: 1px solid #f3f4f6; }
        .field .label { font-weight: 600; }
        .req { color: #b91c1c; }
        .note { font-style: italic; color: #4b5563; margin: 8px 0; }
        .text { white-space: pre-wrap; overflow-wrap: anywhere; }
        .answer ul { margin: 0; padding-left: 20px; }
        .answer-table th, .answer-table td { border: 1px solid #e5e7eb; }
        .badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 700; letter-spacing: .03em; border: 1px solid currentColor; }
        .badge.critical, .severity-critical { color: #fff; background: #b91c1c; border-color: #b91c1c; }
        .severity-high { color: #b91c1c; background: #fee2e2; }
        .severity-medium { color: #92400e; background: #fef3c7; }
        .severity-low { color: #1e40af; background: #dbeafe; }
        .issue { padding: 8px 0; border-bottom: 1px solid #f3f4f6; }
        .issue p { margin: 0 0 6px; }
        .photos { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 10px; margin-top: 4px; }
        figure.photo { margin: 0; padding: 6px; border: 1px solid #e5e7eb; border-radius: 6px; background: #fff; max-width: 252px; }
        figure.photo img { display: block; max-width: 240px; max-height: 240px; height: auto; }
        figure.photo figcaption { font-size: 12px; color: #6b7280; margin-top: 4px; }
        figure.missing { padding: 16px; color: #6b7280; font-style: italic; background: #f9fafb; }
        figure.missing p { margin: 0; }
        footer { margin-top: 32px; font-size: 12px; color: #6b7280; border-top: 1px solid #e5e7eb; padding-top: 8px; }
        @page { size: A4; margin: 14mm 12mm; }
        @media print {
          body { background: none; font-size: 10.5pt; }
          main { max-width: none; margin: 0; padding: 0; box-shadow: none; border-radius: 0; }
          .score { border-width: 1px; }
          .badge, .score.failed .percent { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
          h2, h3 { break-after: avoid; }
          .field, .issue, figure.photo, tr, .score { break-inside: avoid; }
          figure.photo img { max-width: 180px; max-height: 180px; }
        }

        """
}
