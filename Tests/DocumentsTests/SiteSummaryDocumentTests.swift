import Documents
import Foundation
import Imaging
import Testing
import TestSupport

@Suite("A site's summary as a PDF")
struct SiteSummaryDocumentTests {
    @Test(
        "500 inspections: every one listed across pages with the table's header on each, the totals, areas, deficiencies and actions read back"
    )
    func longSummary() throws {
        let folder = TemporaryDirectory()
        let photoPath = folder.path("p.jpg")
        try SyntheticImage.writeJPEG(
            width: 400, height: 300, pattern: .texture(seed: 4), quality: 80, to: URL(fileURLWithPath: photoPath))
        var inspections: [SiteSummaryDocument.InspectionLine] = []
        var trend: [SiteSummaryDocument.TrendPoint] = []
        for n in 0..<500 {
            let day = "\(1 + n / 17) Dec"
            let fraction = Double(n % 10) / 10
            let area = n % 2 == 0 ? "Main lobby" : "Washrooms"
            inspections.append(
                .init(
                    number: String(format: "R-%04d", n), day: day, area: area, form: "Lobby walkthrough",
                    fraction: fraction, passed: n % 10 >= 8))
            trend.append(.init(day: day, offset: Double(n) * 5_000, fraction: fraction, passed: n % 10 >= 8))
        }
        let document = SiteSummaryDocument(
            organisation: "Spotless Services Ltd", logo: nil, site: "Harbourview Office Tower",
            address: "12 Quay Street", period: "December 2026", zone: "Europe/Paris",
            totals: .init(inspections: 500, average: 0.45, passRate: 0.2, deficiencies: 812),
            trend: trend,
            areas: [
                .init(name: "Main lobby", inspections: 250, average: 0.5, passRate: 0.2),
                .init(name: "Washrooms", inspections: 250, average: 0.4, passRate: 0.2),
            ],
            deficiencies: [.init(form: "Lobby walkthrough", item: "Floors", count: 400)],
            actionsClosed: [.init(title: "Polish the lobby floor", state: "verified", age: "2 days")],
            actionsOpen: [.init(title: "Refill the soap", state: "open", age: "9 days", overdue: true)],
            inspections: inspections,
            photos: (0..<8).map { DocumentImage.file(photoPath, caption: "Floors, R-\($0)") })
        let path = folder.path("summary.pdf")
        try DocumentFile.write(path) { (fd) throws(DocumentsError) in try document.write(to: fd) }
        let pdf = PDFReader(path: path)
        #expect(try pdf.check() == nil)
        let pages = try pdf.pages()
        #expect(pages >= 10)
        let text = try pdf.rawText()
        for expected in [
            "Harbourview Office Tower", "Summary of December 2026 (days in Europe/Paris)", "Average score 45%",
            "Pass rate 20%", "Main lobby 250 50% 20%", "Floors 400", "Polish the lobby floor verified 2 days",
            "Refill the soap open 9 days", "R-0000", "R-0499",
        ] {
            #expect(text.contains(expected), "'\(expected)' in the text")
        }
        #expect((0..<500).allSatisfy { text.contains(String(format: "R-%04d", $0)) }, "every inspection listed")
        let headers = text.components(separatedBy: "Report Day Area Form Score").count - 1
        #expect(headers >= pages - 2, "the inspections' header on each of their pages: \(headers) of \(pages)")
        #expect(try pdf.images().filter { $0.encoding == "jpeg" }.count == 8)
        try pdf.keepPages("site-summary", pages: 2)
    }
}
