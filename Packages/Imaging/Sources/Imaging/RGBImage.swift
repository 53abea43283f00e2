import Foundation

/// A decoded image: 8-bit RGB, rows packed top to bottom, no padding.
struct RGBImage {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    static let channels = 3

    init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A white image of the given size.
    init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 255, count: width * height * Self.channels))
    }
}

/// The sizes Imaging refuses before it allocates anything for pixels.
enum ImageLimits {
    /// The longest side accepted from a source, in pixels.
    static let maxSide = 20_000
    /// The most pixels accepted from a source.
    static let maxPixels = 250_000_000
    /// The largest JPEG source file read into memory, in bytes.
    static let maxJPEGFileBytes: Int64 = 256 * 1_048_576

    /// Refuses dimensions beyond the limits with a message that gives both.
    static func check(width: Int, height: Int, of url: URL) throws(ImagingError) {
        guard width > maxSide || height > maxSide || width * height > maxPixels else { return }
        throw ImagingError.tooLarge(
            url,
            what:
                "\(width)x\(height) pixels; the limit is \(maxSide) pixels a side and \(maxPixels / 1_000_000) megapixels"
        )
    }
}

/// The stored size for a source of `width` x `height`: the long edge at most
/// `maxLongEdge`, the aspect ratio kept, never larger than the source.
func fittedSize(width: Int, height: Int, maxLongEdge: Int) -> (width: Int, height: Int) {
    let long = max(width, height)
    guard long > maxLongEdge else { return (width, height) }
    func scaled(_ side: Int) -> Int {
        max(1, Int((Double(side) * Double(maxLongEdge) / Double(long)).rounded()))
    }
    return width >= height ? (maxLongEdge, scaled(height)) : (scaled(width), maxLongEdge)
}
