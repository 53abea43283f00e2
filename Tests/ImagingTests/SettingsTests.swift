import Imaging
import Testing

@Suite("Compression settings")
struct SettingsTests {
    @Test("the defaults are quality 80 and a 2048-pixel long edge")
    func defaults() throws {
        #expect(CompressionSettings.standard.quality == 80)
        #expect(CompressionSettings.standard.maxLongEdge == 2048)
        #expect(try CompressionSettings() == .standard)
    }

    @Test("the ends of both ranges are accepted", arguments: [(1, 64), (100, 16384)])
    func bounds(quality: Int, edge: Int) throws {
        let settings = try CompressionSettings(quality: quality, maxLongEdge: edge)
        #expect(settings.quality == quality && settings.maxLongEdge == edge)
    }

    @Test("values outside the ranges are refused", arguments: [(0, 2048), (101, 2048), (80, 63), (80, 16385), (-5, 0)])
    func refused(quality: Int, edge: Int) {
        let error = imagingError { () throws(ImagingError) in
            _ = try CompressionSettings(quality: quality, maxLongEdge: edge)
        }
        #expect(error?.code == .invalidSettings)
    }

    @Test("every out-of-range value is named in one message")
    func namesEveryProblem() {
        let error = imagingError { () throws(ImagingError) in _ = try CompressionSettings(quality: 0, maxLongEdge: 10) }
        let message = error?.message ?? ""
        #expect(message.contains("quality 0") && message.contains("maximum edge 10"))
        #expect(!message.contains("\n"))
    }
}
