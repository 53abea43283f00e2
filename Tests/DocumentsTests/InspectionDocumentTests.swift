import Documents
import Foundation
import Imaging
import Testing
import TestSupport

@Suite("An inspection report as a PDF")
struct InspectionDocumentTests {
    /// A JPEG of `width` x `height` written to `folder`, and its bytes.
    static func jpeg(_ folder: TemporaryDirectory, _ name: String, _ width: Int, _ height: Int) throws -> (String, Data)
    {
        let path = folder.path(name)
        try SyntheticImage.writeJPEG(
            width: width, height: height, pattern: .texture(seed: UInt32(width)), quality: 85,
            to: URL(fileURLWithPath: path))
        return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func report(photos: [DocumentImage], logo: DocumentImage?) -> InspectionDocument {
        InspectionDocument(
            organisation: "Spotless Services Ltd", logo: logo, form: "Lobby walkthrough", number: "R-7a3f",
            site: "Harbourview Office Tower", area: "Main lobby", when: "7 Dec 2026, 09:41 (Europe/Paris)",
            inspector: "Ivy Field",
            score: .init(fraction: 0.625, passed: false, threshold: 0.8, deficiencies: ["Floors"]),
            sections: [
                .init(
                    title: "Appearance",
                    answers: [
                        .init(label: "Floors", value: "3 · Casual inattention (50%)", deficient: true, photos: photos),
                        .init(label: "Glass", value: "4 of 5"),
                    ]),
                .init(
                    title: "Safety",
                    answers: [.init(label: "Sharps container sealed", value: "Pass", notes: ["critical"])]),
            ],
            issues: [.init(severity: "high", description: "Soap dispenser empty by the lift", action: "open")],
            signature: .init(label: "Supervisor's signature", name: "Sam Super", image: nil),
            review: ["7 Dec 2026 10:02 Sam Super returned it: Please add the floor photo"], note: "Internal copy")
    }

    @Test(
        "the report reads back with its site, score, verdict, every label and value, the deficiency and the issue; photos are the JPEG bytes at their size"
    )
    func readsBack() throws {
        let folder = TemporaryDirectory()
        let (firstPath, first) = try Self.jpeg(folder, "a.jpg", 640, 480)
        let (_, second) = try Self.jpeg(folder, "b.jpg", 300, 500)
        let logoPath = folder.path("logo.png")
        try SyntheticImage.writePNG(width: 200, height: 60, pattern: .cornerMarkers, to: URL(fileURLWithPath: logoPath))
        let document = Self.report(
            photos: [.file(firstPath, caption: "North corner"), DocumentImage { second }],
            logo: .file(logoPath))
        let path = folder.path("report.pdf")
        try DocumentFile.write(path) { (fd) throws(DocumentsError) in try document.write(to: fd) }
        let pdf = PDFReader(path: path)
        #expect(try pdf.check() == nil)
        let text = try pdf.text()
        for expected in [
            "Spotless Services Ltd", "Lobby walkthrough", "Harbourview Office Tower", "Main lobby", "Ivy Field",
            "62.5%", "Failed: below the pass mark (pass mark 80%)", "Items to put right: Floors", "Floors",
            "3 · Casual inattention (50%)", "Glass", "4 of 5", "Sharps container sealed", "Pass",
            "Soap dispenser empty by the lift", "open", "Sam Super", "North corner", "page 1",
            "Please add the floor photo",
        ] {
            #expect(text.contains(expected), "'\(expected)' in the text")
        }
        let images = try pdf.images()
        let jpegs = images.filter { $0.encoding == "jpeg" }
        #expect(jpegs.map { [$0.width, $0.height] } == [[640, 480], [300, 500]], "\(images)")
        // The bytes embedded are the bytes held: the first photo's JPEG is in the file as it is.
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(file.range(of: first) != nil && file.range(of: second) != nil)
        #expect(images.contains { $0.encoding != "jpeg" && $0.width == 200 && $0.height == 60 }, "the PNG logo drawn")
        try pdf.keepPages("inspection-report")
    }

    @Test(
        "hostile text (markup, right-to-left marks, emoji, control characters, 10,000 characters) makes a valid PDF; it wraps across pages, numbered"
    )
    func hostileText() throws {
        let folder = TemporaryDirectory()
        let long = String(repeating: "Mop the east stairwell again. ", count: 340)
        let hostile = [
            "<script>window.__xss=3</script>", "\"><img src=x onerror=\"window.__xss=4\">",
            "\u{202E}gnirts desrever\u{202C} and \u{200F}عربى\u{200E}", "🧹🧽✨ Clean 🚽", "tab\there\u{0}nul\u{7}bell",
            "\u{10FFFF}\u{E000} private use", "שלום עולם",
        ]
        var document = Self.report(photos: [], logo: nil)
        document.sections.append(
            .init(
                title: hostile[0],
                answers: hostile.map { .init(label: $0, value: $0) } + [.init(label: "Long", value: long)]))
        document.issues.append(.init(severity: "critical", description: long, action: nil))
        let path = folder.path("hostile.pdf")
        try DocumentFile.write(path) { (fd) throws(DocumentsError) in try document.write(to: fd) }
        let pdf = PDFReader(path: path)
        #expect(try pdf.check() == nil)
        #expect(try pdf.pages() >= 3)
        let text = try pdf.rawText()
        #expect(text.contains("<script>window.__xss=3</script>"), "markup drawn as text")
        #expect(text.contains("page 2") && text.contains("page 3"))
        #expect(text.components(separatedBy: "stairwell").count > 340, "the long answer whole")
        try pdf.keepPages("inspection-hostile", pages: 3)
    }

    @Test("a photo that cannot be read is drawn as a box saying so, and the rest of the report is there")
    func unreadablePhoto() throws {
        let folder = TemporaryDirectory()
        let broken = [
            DocumentImage { Data("not a photo".utf8) }, DocumentImage { nil },
            DocumentImage { Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 1, 2]) },
        ]
        let path = folder.path("broken.pdf")
        try DocumentFile.write(path) { (fd) throws(DocumentsError) in
            try Self.report(photos: broken, logo: nil).write(to: fd)
        }
        let pdf = PDFReader(path: path)
        #expect(try pdf.check() == nil)
        let text = try pdf.text()
        #expect(text.components(separatedBy: "photo unavailable").count == 4)
        #expect(text.contains("Soap dispenser empty by the lift"))
        #expect(try pdf.images().isEmpty)
    }

    @Test("a full disk is one error naming the file, and no half document is left at the path")
    func fullDisk() throws {
        let document = Self.report(photos: [], logo: nil)
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(throws: DocumentsError.self) { try document.write(to: descriptor) }
        let folder = TemporaryDirectory()
        let missing = folder.path("no-such-folder/report.pdf")
        #expect(throws: DocumentsError.self) {
            try DocumentFile.write(missing) { (fd) throws(DocumentsError) in try document.write(to: fd) }
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
