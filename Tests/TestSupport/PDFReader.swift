import Foundation
import Testing

/// A PDF read back as a person's tools read it: poppler-utils' `pdftotext`
/// and `pdfimages`, and `qpdf --check`. Page images go to
/// `.build/documents/` for a person to look at.
public struct PDFReader {
    public let path: String

    public init(path: String) { self.path = path }

    /// The text of every page, laid out.
    public func text() throws -> String {
        let out = try Subprocess.run("/usr/bin/pdftotext", ["-layout", "-enc", "UTF-8", path, "-"])
        try #require(out.status == 0, "pdftotext: \(out.stderr)")
        return out.stdout
    }

    /// The text without layout: each line as the drawing wrote it.
    public func rawText() throws -> String {
        let out = try Subprocess.run("/usr/bin/pdftotext", ["-raw", "-enc", "UTF-8", path, "-"])
        try #require(out.status == 0, "pdftotext: \(out.stderr)")
        return out.stdout
    }

    /// One embedded image as `pdfimages -list` reports it.
    public struct Image: Equatable, Sendable {
        public var page: Int
        public var width: Int
        public var height: Int
        public var encoding: String
    }

    public func images() throws -> [Image] {
        let out = try Subprocess.run("/usr/bin/pdfimages", ["-list", path])
        try #require(out.status == 0, "pdfimages: \(out.stderr)")
        return out.stdout.split(separator: "\n").dropFirst(2).compactMap { line in
            let cells = line.split(separator: " ", omittingEmptySubsequences: true)
            guard cells.count > 8, let page = Int(cells[0]), let width = Int(cells[3]), let height = Int(cells[4])
            else { return nil }
            return Image(page: page, width: width, height: height, encoding: String(cells[8]))
        }
    }

    /// `qpdf --check`'s verdict: nil when the file is sound, else what it said.
    public func check() throws -> String? {
        let out = try Subprocess.run("/usr/bin/qpdf", ["--check", path])
        return out.status == 0 ? nil : out.stdout + out.stderr
    }

    /// The number of pages.
    public func pages() throws -> Int {
        let out = try Subprocess.run("/usr/bin/pdfinfo", [path])
        let line = out.stdout.split(separator: "\n").first { $0.hasPrefix("Pages:") } ?? ""
        return Int(line.split(separator: " ").last ?? "") ?? 0
    }

    /// Renders the first `pages` pages as PNGs under `.build/documents/NAME-N.png`.
    public func keepPages(_ name: String, pages: Int = 2) throws {
        let folder = Self.outputFolder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let out = try Subprocess.run(
            "/usr/bin/pdftoppm", ["-png", "-r", "60", "-f", "1", "-l", String(pages), path, folder + "/" + name])
        #expect(out.status == 0, "pdftoppm: \(out.stderr)")
    }

    /// `.build/documents` of the repository.
    public static var outputFolder: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/documents").path
    }
}
