import CPangoCairo
import Foundation

extension SiteSummaryDocument {
    /// Writes the summary as a PDF onto `descriptor` (streamed, page by page).
    public func write(to descriptor: Int32) throws(DocumentsError) {
        let canvas = try PDFCanvas(
            descriptor: descriptor, title: "\(site): \(period)", footer: "\(organisation) · \(site) · \(period)")
        canvas.header(organisation: organisation, logo: logo)
        canvas.paragraph(site, style: .title)
        if let address, !address.isEmpty { canvas.paragraph(address, style: .small) }
        canvas.paragraph("Summary of \(period) (days in \(zone))", style: .subheading)
        canvas.y += 4
        canvas.facts([
            ("Inspections", String(totals.inspections)),
            ("Average score", totals.average.map(DocumentNumber.percent) ?? "—"),
            ("Pass rate", totals.passRate.map(DocumentNumber.percent) ?? "no pass mark"),
            ("Deficiencies", String(totals.deficiencies)),
            ("Actions", "\(actionsClosed.count) closed, \(actionsOpen.count) open"),
        ])
        if !trend.isEmpty {
            canvas.paragraph("Scores over the period", style: .heading)
            canvas.trendChart(trend)
        }
        section("Averages by area", on: canvas, empty: "No inspections in this period.", areas.isEmpty) {
            DocumentTable(
                columns: [
                    .init("Area", share: 0.46), .init("Inspections", share: 0.18, numeric: true),
                    .init("Average", share: 0.18, numeric: true), .init("Pass rate", share: 0.18, numeric: true),
                ],
                rows: areas.map {
                    .init([
                        $0.name, String($0.inspections), $0.average.map(DocumentNumber.percent) ?? "—",
                        $0.passRate.map(DocumentNumber.percent) ?? "—",
                    ])
                })
        }
        section("Scheduled visits", on: canvas, empty: "No area of this site.", coverage.isEmpty) {
            DocumentTable(
                columns: [
                    .init("Area", share: 0.35), .init("Visits", share: 0.13, numeric: true),
                    .init("On time", share: 0.13, numeric: true), .init("Late", share: 0.13, numeric: true),
                    .init("Missed", share: 0.13, numeric: true), .init("Open", share: 0.13, numeric: true),
                ],
                rows: coverage.map {
                    .init(
                        [
                            $0.area + ($0.uninspected ? " (not inspected)" : ""), String($0.expected),
                            String($0.onTime), String($0.late), String($0.missed), String($0.open),
                        ], marked: $0.missed > 0 || $0.uninspected)
                })
        }
        section("Deficiencies found", on: canvas, empty: "None found in this period.", deficiencies.isEmpty) {
            DocumentTable(
                columns: [
                    .init("Form", share: 0.4), .init("Item", share: 0.4), .init("Times", share: 0.2, numeric: true),
                ],
                rows: deficiencies.map { .init([$0.form, $0.item, String($0.count)]) })
        }
        if !photos.isEmpty { canvas.photoGrid(photos, perRow: 4, maxHeight: 110) }
        section("Actions closed", on: canvas, empty: "No action closed in this period.", actionsClosed.isEmpty) {
            actionTable(actionsClosed, ageTitle: "Took")
        }
        section("Actions open", on: canvas, empty: "No action open.", actionsOpen.isEmpty) {
            actionTable(actionsOpen, ageTitle: "Open for")
        }
        section("Inspections", on: canvas, empty: "No inspections in this period.", inspections.isEmpty) {
            DocumentTable(
                columns: [
                    .init("Report", share: 0.14), .init("Day", share: 0.14), .init("Area", share: 0.26),
                    .init("Form", share: 0.28), .init("Score", share: 0.18, numeric: true),
                ],
                rows: inspections.map {
                    .init(
                        [
                            $0.number, $0.day, $0.area, $0.form,
                            ($0.fraction.map(DocumentNumber.percent) ?? "—")
                                + ($0.passed == false ? " failed" : ($0.passed == true ? " passed" : "")),
                        ], marked: $0.passed == false)
                })
        }
        try canvas.finish()
    }

    private func section(
        _ title: String, on canvas: PDFCanvas, empty: String, _ isEmpty: Bool, table: () -> DocumentTable
    ) {
        canvas.ensure(70)
        canvas.y += 4
        canvas.paragraph(title, style: .heading)
        if isEmpty {
            canvas.paragraph(empty, style: TextStyle.body.colored(.muted))
        } else {
            canvas.draw(table())
        }
    }

    private func actionTable(_ lines: [ActionLine], ageTitle: String) -> DocumentTable {
        DocumentTable(
            columns: [
                .init("Action", share: 0.56), .init("State", share: 0.22), .init(ageTitle, share: 0.22, numeric: true),
            ],
            rows: lines.map { .init([$0.title, $0.state, $0.age], marked: $0.overdue) })
    }
}

extension PDFCanvas {
    /// The scores as points along the period, joined when few, on a 0-100% scale;
    /// failed ones red; the first and last day written under the axis.
    func trendChart(_ points: [SiteSummaryDocument.TrendPoint]) {
        let height = 140.0
        ensure(height + 30)
        let (x0, top, w) = (left + 30, y, width - 30)
        cairo_set_line_width(cr, 0.5)
        for step in 0...4 {
            let lineY = top + height - Double(step) / 4 * height
            cairo_set_source_rgb(cr, 0.85, 0.85, 0.85)
            cairo_move_to(cr, x0, lineY)
            cairo_line_to(cr, x0 + w, lineY)
            cairo_stroke(cr)
            block("\(step * 25)%", style: .small, x: 0, top: lineY - 5, width: 26)
        }
        let span = max(points.map(\.offset).max() ?? 1, 1)
        func position(_ point: SiteSummaryDocument.TrendPoint) -> (Double, Double) {
            (x0 + 4 + (w - 8) * point.offset / span, top + height - min(max(point.fraction, 0), 1) * height)
        }
        DocumentColor.accent.set(cr)
        cairo_set_line_width(cr, 1.2)
        // Many inspections are dots alone: a line through them would be a blur.
        for (index, point) in points.enumerated() where points.count <= 60 {
            let (px, py) = position(point)
            if index == 0 { cairo_move_to(cr, px, py) } else { cairo_line_to(cr, px, py) }
        }
        cairo_stroke(cr)
        for point in points {
            let (px, py) = position(point)
            (point.passed == false ? DocumentColor.failed : DocumentColor.accent).set(cr)
            cairo_arc(cr, px, py, points.count > 200 ? 1.2 : 2.2, 0, 2 * Double.pi)
            cairo_fill(cr)
        }
        if let first = points.first, let last = points.last {
            block(first.day, style: .small, x: 30, top: top + height + 3, width: 120)
            block(last.day, style: TextStyle.small.right, x: width - 150, top: top + height + 3, width: 150)
        }
        y = top + height + 20
    }
}
