import Foundation
import Imaging
import Testing
import TestSupport

@Suite("PNG sources of every colour type")
struct PNGLayoutTests {
    @Test(
        "each PNG layout is stored at its size with its corners where they were",
        arguments: SyntheticImage.PNGLayout.allCases)
    func layout(_ layout: SyntheticImage.PNGLayout) throws {
        let dir = TemporaryDirectory()
        let source = dir.file("\(layout.rawValue).png"), stored = dir.file("stored.jpg")
        try SyntheticImage.writePNG(width: 300, height: 200, pattern: .cornerMarkers, layout: layout, to: source)

        let photo = try compressor().compress(source: source, to: stored)

        #expect(photo.width == 300 && photo.height == 200 && photo.sourceFormat == .png)
        let corners = Corners(of: try SyntheticImage.decode(stored))
        let transparent = layout == .rgba || layout == .greyAlpha
        // Grey layouts keep each marker's brightness: red 76, yellow 226.
        let grey = layout == .grey || layout == .greyAlpha
        let topLeft: Colour = grey ? Colour(76, 76, 76) : .red
        let bottomRight: Colour = transparent ? .white : (grey ? Colour(226, 226, 226) : .yellow)
        #expect(corners.topLeft.isClose(to: topLeft), "\(layout): \(corners)")
        #expect(corners.bottomRight.isClose(to: bottomRight), "\(layout): \(corners)")
    }
}
