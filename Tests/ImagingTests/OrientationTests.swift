import Foundation
import Imaging
import Testing
import TestSupport

@Suite("Turning photos upright from their EXIF orientation")
struct OrientationTests {
    /// For each EXIF orientation, the marker colours a viewer sees in the upright
    /// photo's corners, given the stored pattern red TL, green TR, blue BL, yellow BR.
    static let uprightCorners: [Int: Corners] = [
        1: Corners(.red, .green, .blue, .yellow),
        2: Corners(.green, .red, .yellow, .blue), // mirrored left-right
        3: Corners(.yellow, .blue, .green, .red), // upside down
        4: Corners(.blue, .yellow, .red, .green), // mirrored top-bottom
        5: Corners(.red, .blue, .green, .yellow), // mirrored along the main diagonal
        6: Corners(.blue, .red, .yellow, .green), // turned a quarter clockwise to view
        7: Corners(.yellow, .green, .blue, .red), // mirrored along the other diagonal
        8: Corners(.green, .yellow, .red, .blue), // turned a quarter anticlockwise to view
    ]

    @Test("a 400x200 photo tagged with an orientation comes out upright", arguments: 1...8)
    func upright(orientation: Int) throws {
        let dir = TemporaryDirectory()
        let source = dir.file("IMG_\(orientation).jpg"), stored = dir.file("stored.jpg")
        try SyntheticImage.writeJPEG(
            width: 400, height: 200, pattern: .cornerMarkers, exifOrientation: orientation, to: source)

        let photo = try compressor().compress(source: source, to: stored)

        let turned = orientation >= 5
        #expect(photo.width == (turned ? 200 : 400) && photo.height == (turned ? 400 : 200))
        let back = try SyntheticImage.decode(stored)
        #expect(back.width == photo.width && back.height == photo.height)
        let expected = try #require(Self.uprightCorners[orientation])
        let corners = Corners(of: back)
        #expect(corners.matches(expected), "orientation \(orientation): \(corners)")
    }

    @Test("orientation 6 and a strong size reduction together give an upright portrait")
    func turnedAndShrunk() throws {
        let dir = TemporaryDirectory()
        let source = dir.file("portrait.jpg"), stored = dir.file("stored.jpg")
        try SyntheticImage.writeJPEG(width: 3000, height: 2000, pattern: .cornerMarkers, exifOrientation: 6, to: source)

        let photo = try compressor(maxLongEdge: 600).compress(source: source, to: stored)

        #expect(photo.width == 400 && photo.height == 600)
        let corners = Corners(of: try SyntheticImage.decode(stored), inset: 16)
        #expect(corners.matches(try #require(Self.uprightCorners[6])), "\(corners)")
    }

    @Test("the stored JPEG carries no orientation: decoding it as stored already shows it upright")
    func noExifInOutput() throws {
        let dir = TemporaryDirectory()
        let source = dir.file("tagged.jpg"), first = dir.file("first.jpg"), second = dir.file("second.jpg")
        try SyntheticImage.writeJPEG(width: 400, height: 200, pattern: .cornerMarkers, exifOrientation: 8, to: source)

        _ = try compressor().compress(source: source, to: first)
        // Compressing the result again must not turn it a second time.
        let again = try compressor().compress(source: first, to: second)

        #expect(again.width == 200 && again.height == 400)
        let corners = Corners(of: try SyntheticImage.decode(second))
        #expect(corners.matches(try #require(Self.uprightCorners[8])), "\(corners)")
        #expect(!(try Data(contentsOf: first)).contains("Exif".utf8))
    }
}

private extension Data {
    func contains(_ bytes: String.UTF8View) -> Bool { range(of: Data(bytes)) != nil }
}
