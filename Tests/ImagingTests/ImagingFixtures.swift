import Foundation
import Imaging
import TestSupport

typealias Colour = SyntheticImage.Colour

/// The colours seen just inside the four corners of a picture, in reading order.
struct Corners: Equatable, CustomStringConvertible {
    var topLeft: Colour
    var topRight: Colour
    var bottomLeft: Colour
    var bottomRight: Colour

    init(_ topLeft: Colour, _ topRight: Colour, _ bottomLeft: Colour, _ bottomRight: Colour) {
        (self.topLeft, self.topRight, self.bottomLeft, self.bottomRight) = (topLeft, topRight, bottomLeft, bottomRight)
    }

    /// Samples `raster` `inset` pixels in from each corner.
    init(of raster: SyntheticImage.Raster, inset: Int = 8) {
        let right = raster.width - 1 - inset, bottom = raster.height - 1 - inset
        self.init(
            raster.colour(x: inset, y: inset), raster.colour(x: right, y: inset),
            raster.colour(x: inset, y: bottom), raster.colour(x: right, y: bottom)
        )
    }

    /// True when each corner is close to the expected one, allowing for JPEG loss.
    func matches(_ expected: Corners, tolerance: Int = 48) -> Bool {
        topLeft.isClose(to: expected.topLeft, tolerance: tolerance)
            && topRight.isClose(to: expected.topRight, tolerance: tolerance)
            && bottomLeft.isClose(to: expected.bottomLeft, tolerance: tolerance)
            && bottomRight.isClose(to: expected.bottomRight, tolerance: tolerance)
    }

    var description: String { "TL \(topLeft) TR \(topRight) BL \(bottomLeft) BR \(bottomRight)" }
}

extension TemporaryDirectory {
    /// The URL of `name` inside this directory.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
}

/// A compressor with the given settings, which the tests choose inside the allowed ranges.
func compressor(quality: Int = 80, maxLongEdge: Int = 2048) throws -> PhotoCompressor {
    PhotoCompressor(settings: try CompressionSettings(quality: quality, maxLongEdge: maxLongEdge))
}

/// The error `body` throws, or nil when it throws nothing.
func imagingError(_ body: () throws(ImagingError) -> Void) -> ImagingError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

/// CRC-32 as PNG chunks use it, to forge a valid header in a test file.
func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// The offset of the first occurrence of `pattern` in `bytes`.
func offset(of pattern: String, in bytes: [UInt8]) -> Int? {
    let needle = Array(pattern.utf8)
    guard bytes.count >= needle.count else { return nil }
    return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
}
