import Foundation
import Imaging
import Testing
import TestSupport

@Suite("Compressing an imported photo")
struct CompressionTests {
    @Test("a 4000x3000 camera JPEG is stored at 2048x1536 and far smaller")
    func largeJPEG() throws {
        let dir = TemporaryDirectory()
        let source = dir.file("IMG_0001.JPG"), stored = dir.file("stored.jpg")
        try SyntheticImage.writeJPEG(width: 4000, height: 3000, pattern: .texture(seed: 7), quality: 95, to: source)

        let photo = try compressor().compress(source: source, to: stored)

        #expect(photo.width == 2048 && photo.height == 1536)
        #expect(photo.sourceFormat == .jpeg)
        #expect(photo.storedBytes * 4 < photo.sourceBytes)
        #expect(photo.storedBytes == Int64(try Data(contentsOf: stored).count))
        let back = try SyntheticImage.decode(stored)
        #expect(back.width == 2048 && back.height == 1536)
        #expect(try ImageProbe.format(of: stored) == .jpeg)
    }

    @Test("a 1000x800 PNG is stored as a 1000x800 JPEG, never scaled up")
    func smallPNG() throws {
        let dir = TemporaryDirectory()
        let source = dir.file("screenshot.png"), stored = dir.file("stored.jpg")
        try SyntheticImage.writePNG(width: 1000, height: 800, pattern: .texture(seed: 3), to: source)

        let photo = try compressor().compress(source: source, to: stored)

        #expect(photo.width == 1000 && photo.height == 800)
        #expect(photo.sourceFormat == .png)
        #expect(try ImageProbe.format(of: stored) == .jpeg)
        let back = try SyntheticImage.decode(stored)
        #expect(back.width == 1000 && back.height == 800)
    }

    @Test("a big JPEG shrunk a lot keeps its picture: markers stay in their corners")
    func strongReduction() throws {
        let dir = TemporaryDirectory()
        let source = dir.file("wide.jpg"), stored = dir.file("stored.jpg")
        try SyntheticImage.writeJPEG(width: 3000, height: 2000, pattern: .cornerMarkers, to: source)

        let photo = try compressor(maxLongEdge: 700).compress(source: source, to: stored)

        #expect(photo.width == 700 && photo.height == 467)
        let corners = Corners(of: try SyntheticImage.decode(stored), inset: 20)
        #expect(corners.matches(Corners(.red, .green, .blue, .yellow)), "\(corners)")
    }

    @Test("quality 30 stores a smaller file than quality 90")
    func qualityMatters() throws {
        let dir = TemporaryDirectory()
        let source = dir.file("photo.jpg")
        try SyntheticImage.writeJPEG(width: 800, height: 600, pattern: .texture(seed: 11), to: source)

        let low = try compressor(quality: 30).compress(source: source, to: dir.file("q30.jpg"))
        let high = try compressor(quality: 90).compress(source: source, to: dir.file("q90.jpg"))

        #expect(low.storedBytes < high.storedBytes)
        #expect(low.width == high.width && low.height == high.height)
    }

    @Test("the source file's bytes are unchanged after compressing", arguments: ["photo.jpg", "photo.png"])
    func sourceUntouched(name: String) throws {
        let dir = TemporaryDirectory()
        let source = dir.file(name)
        if name.hasSuffix("png") {
            try SyntheticImage.writePNG(width: 600, height: 400, pattern: .texture(seed: 5), to: source)
        } else {
            try SyntheticImage.writeJPEG(
                width: 600, height: 400, pattern: .texture(seed: 5), exifOrientation: 6, to: source)
        }
        let before = try Data(contentsOf: source)

        _ = try compressor(maxLongEdge: 300).compress(source: source, to: dir.file("stored.jpg"))

        #expect(try Data(contentsOf: source) == before)
    }

    @Test("the format comes from the bytes, not the name")
    func probeByMagic() throws {
        let dir = TemporaryDirectory()
        let misnamed = dir.file("really-a-png.jpg")
        try SyntheticImage.writePNG(width: 100, height: 80, pattern: .cornerMarkers, to: misnamed)

        #expect(try ImageProbe.format(of: misnamed) == .png)
        let photo = try compressor().compress(source: misnamed, to: dir.file("stored.jpg"))
        #expect(photo.sourceFormat == .png && photo.width == 100 && photo.height == 80)
    }
}
