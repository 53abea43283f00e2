import Foundation

extension InspectionDocument {
    /// Writes the report as a PDF onto `descriptor` (streamed, page by page).
    public func write(to descriptor: Int32) throws(DocumentsError) {
        let canvas = try PDFCanvas(
            descriptor: descriptor, title: "\(form) at \(site)",
            footer: "\(organisation) · \(form) · \(site) · report \(number)")
        canvas.header(organisation: organisation, logo: logo)
        canvas.paragraph(form, style: .title)
        if let note { canvas.paragraph(note, style: .small) }
        canvas.facts([
            ("Site", site), ("Area", area ?? "—"), ("When", when), ("Inspector", inspector ?? "—"),
            ("Report", number),
        ])
        if let score { canvas.scoreBlock(score) }
        for section in sections { drawSection(section, on: canvas) }
        if !issues.isEmpty { drawIssues(on: canvas) }
        if let signature { drawSignature(signature, on: canvas) }
        if !review.isEmpty {
            canvas.ensure(60)
            canvas.paragraph("Review and history", style: .heading)
            for line in review { canvas.paragraph(line, style: .body) }
        }
        try canvas.finish()
    }

    private func drawSection(_ section: Section, on canvas: PDFCanvas) {
        if let title = section.title {
            canvas.ensure(60)
            canvas.y += 4
            canvas.paragraph(title, style: .heading)
        }
        for answer in section.answers {
            canvas.ensure(34)
            let top = canvas.y
            let label = answer.deficient ? "\(answer.label)  — deficient" : answer.label
            // A note of the form has no label: its words alone.
            if !label.isEmpty {
                canvas.paragraph(label, style: answer.deficient ? TextStyle.label.colored(.failed) : .label, x: 8)
            }
            canvas.paragraph(answer.value.isEmpty ? "—" : answer.value, style: .body, x: 8)
            for note in answer.notes { canvas.paragraph(note, style: .small, x: 8) }
            if answer.deficient && canvas.y > top {
                // A red bar beside a deficient item (on the page where it began, if it ran over).
                canvas.fill(x: 0, top: top, width: 3, height: canvas.y - top - 2, color: .failed)
            }
            if !answer.photos.isEmpty { canvas.photoGrid(answer.photos) }
            canvas.y += 3
        }
    }

    private func drawIssues(on canvas: PDFCanvas) {
        canvas.ensure(60)
        canvas.y += 4
        canvas.paragraph("Issues", style: .heading)
        canvas.draw(
            DocumentTable(
                columns: [
                    .init("Severity", share: 0.14), .init("Description", share: 0.62), .init("Action", share: 0.24),
                ],
                rows: issues.map {
                    .init(
                        [$0.severity, $0.description, $0.action ?? "—"],
                        marked: ["high", "critical"].contains($0.severity))
                }))
        let photos = issues.enumerated().flatMap { index, issue in
            issue.photos.map { DocumentImage(caption: "Issue \(index + 1)", bytes: $0.bytes) }
        }
        if !photos.isEmpty { canvas.photoGrid(photos) }
    }

    private func drawSignature(_ signature: Signature, on canvas: PDFCanvas) {
        canvas.ensure(110)
        canvas.y += 6
        canvas.paragraph(signature.label, style: .subheading)
        if let image = signature.image {
            canvas.y += canvas.picture(image, x: 0, top: canvas.y, maxWidth: 200, maxHeight: 70) + 4
        }
        canvas.paragraph(signature.name, style: .body)
    }
}

extension PDFCanvas {
    /// The organisation's name beside its logo, and a rule.
    func header(organisation: String, logo: DocumentImage?) {
        var height = 0.0
        if let logo { height = picture(logo, x: 0, top: y, maxWidth: 140, maxHeight: 44) }
        let nameHeight = block(
            organisation, style: TextStyle.subheading.colored(.muted).right, x: 150, top: y, width: width - 150)
        y += max(height, nameHeight) + 8
        rule()
    }

    /// Pairs of a name and a value in two columns.
    func facts(_ pairs: [(String, String)]) {
        for (name, value) in pairs {
            let top = y
            block(name, style: TextStyle.label.colored(.muted), x: 0, top: top, width: 90)
            paragraph(value, style: .body, x: 96)
            if y < top + 12 { y = top + 12 }
        }
        y += 6
    }

    /// The score large, coloured by the verdict, the pass mark and the deficient items.
    func scoreBlock(_ score: InspectionDocument.Score) {
        ensure(90)
        let color: DocumentColor = score.passed == false ? .failed : (score.passed == true ? .passed : .text)
        let percent = score.fraction.map(DocumentNumber.percent) ?? "—"
        let height = block(percent, style: TextStyle.score.colored(color), x: 0, top: y, width: 170)
        let verdict: String
        switch (score.passed, score.threshold) {
        case (true?, let mark?): verdict = "Passed (pass mark \(DocumentNumber.percent(mark)))"
        case (false?, let mark?): verdict = "Failed: below the pass mark (pass mark \(DocumentNumber.percent(mark)))"
        case (false?, nil): verdict = "Failed"
        case (true?, nil): verdict = "Passed"
        default: verdict = "No pass mark"
        }
        block(verdict, style: TextStyle.subheading.colored(color), x: 180, top: y + 8, width: width - 180)
        y += height + 6
        if !score.deficiencies.isEmpty {
            paragraph(
                "Items to put right: " + score.deficiencies.joined(separator: ", "),
                style: TextStyle.body.colored(.failed))
        }
        y += 6
    }
}

/// Numbers as the documents write them.
public enum DocumentNumber {
    /// 0.875 as "87.5%", 0.8 as "80%": at most one decimal, none when whole.
    public static func percent(_ fraction: Double) -> String {
        let value = (fraction * 1000).rounded() / 10
        return (value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)) + "%"
    }
}
