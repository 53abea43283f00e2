import Foundation

/// Images made in code with the same libraries, for tests and benchmark
/// tools: never part of the import path.
///
/// A pattern is drawn in the stored frame; `writeJPEG` can tag it with an
/// EXIF orientation, and `decode` reads any JPEG or PNG back as stored
/// (orientation not applied) so a caller can look at its pixels.
public enum SyntheticImage {
    /// An 8-bit sRGB colour.
    public struct Colour: Sendable, Equatable, CustomStringConvertible {
        /// Red, 0-255.
        public var red: UInt8
        /// Green, 0-255.
        public var green: UInt8
        /// Blue, 0-255.
        public var blue: UInt8

        /// A colour from its three channels.
        public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// The top-left marker of `.cornerMarkers`.
        public static let red = Colour(255, 0, 0)
        /// The top-right marker of `.cornerMarkers`.
        public static let green = Colour(0, 255, 0)
        /// The bottom-left marker of `.cornerMarkers`.
        public static let blue = Colour(0, 0, 255)
        /// The bottom-right marker of `.cornerMarkers`.
        public static let yellow = Colour(255, 255, 0)
        /// The background of `.cornerMarkers`.
        public static let grey = Colour(128, 128, 128)
        /// What transparent pixels become after compositing.
        public static let white = Colour(255, 255, 255)

        /// True when every channel is within `tolerance` of `other`'s, allowing for lossy compression.
        public func isClose(to other: Colour, tolerance: Int = 48) -> Bool {
            abs(Int(red) - Int(other.red)) <= tolerance
                && abs(Int(green) - Int(other.green)) <= tolerance
                && abs(Int(blue) - Int(other.blue)) <= tolerance
        }

        /// "(255, 0, 0)".
        public var description: String { "(\(red), \(green), \(blue))" }
    }

    /// What is drawn.
    public enum Pattern: Sendable, Equatable {
        /// A grey field with a square marker in each corner: red top-left,
        /// green top-right, blue bottom-left, yellow bottom-right; each side a fifth of the short edge.
        case cornerMarkers
        /// Smooth gradients with seeded noise, which compresses like a photograph.
        case texture(seed: UInt32)
        /// Seeded noise in every byte, which no JPEG compresses much: a large photo from few pixels.
        case noise(seed: UInt32)
    }

    /// How a PNG is stored; the alpha layouts make the bottom-right marker square fully transparent.
    public enum PNGLayout: String, Sendable, CaseIterable {
        /// 8-bit RGB.
        case rgb
        /// 8-bit RGB with alpha.
        case rgba
        /// 8-bit grey.
        case grey
        /// 8-bit grey with alpha.
        case greyAlpha
        /// 16-bit RGB (linear light, with its gAMA chunk).
        case rgb16
        /// 8-bit palette of 256 colours (3 bits red, 3 green, 2 blue).
        case palette
    }

    /// Decoded pixels: 8-bit RGB, rows packed top to bottom.
    public struct Raster: Sendable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// `width * height * 3` bytes, red-green-blue per pixel.
        public var pixels: [UInt8]

        /// The colour at (`x`, `y`), counted from the top-left.
        public func colour(x: Int, y: Int) -> Colour {
            let i = (y * width + x) * 3
            return Colour(pixels[i], pixels[i + 1], pixels[i + 2])
        }

        init(_ image: RGBImage) {
            width = image.width
            height = image.height
            pixels = image.pixels
        }
    }

    /// The side of each corner marker (and of the transparent square) for a `width` x `height` image.
    public static func markerSide(width: Int, height: Int) -> Int {
        max(1, min(width, height) / 5)
    }

    /// The pattern drawn at `width` x `height`.
    public static func raster(width: Int, height: Int, pattern: Pattern) -> Raster {
        Raster(draw(width: width, height: height, pattern: pattern))
    }

    /// Writes the pattern as a JPEG (4:4:4, `quality`), with an Exif APP1
    /// segment carrying `exifOrientation` (1-8) when one is given.
    public static func writeJPEG(
        width: Int, height: Int, pattern: Pattern, quality: Int = 95, exifOrientation: Int? = nil, to url: URL
    ) throws(ImagingError) {
        let image = draw(width: width, height: height, pattern: pattern)
        let app1 = try exifOrientation.map { value throws(ImagingError) in try ExifSegment.orientation(value, for: url)
        }
        _ = try JPEGEncoder.encode(image, quality: quality, chroma: .full, destination: url) {
            jpeg throws(ImagingError) in
            guard let app1, jpeg.count > 2 else { return try DestinationFile.write([jpeg], to: url) }
            // The Exif segment goes straight after the start-of-image marker.
            let tagged = Array(jpeg[..<2]) + app1 + Array(jpeg[2...])
            let result: Result<Int64, ImagingError> = tagged.withUnsafeBytes { bytes in
                Result { () throws(ImagingError) in try DestinationFile.write([bytes], to: url) }
            }
            return try result.get()
        }
    }

    /// Writes the pattern as a PNG in `layout`.
    public static func writePNG(width: Int, height: Int, pattern: Pattern, layout: PNGLayout = .rgb, to url: URL)
        throws(ImagingError)
    {
        try PNGWriter.write(draw(width: width, height: height, pattern: pattern), layout: layout, to: url)
    }

    /// Reads a JPEG or PNG as stored, at full size and without applying any orientation.
    public static func decode(_ url: URL) throws(ImagingError) -> Raster {
        let file = try SourceFile(url)
        switch try ImageProbe.format(of: file) {
        case .jpeg: return Raster(try JPEGDecoder.decode(file, fittingLongEdge: nil).image)
        case .png: return Raster(try PNGDecoder.decode(file))
        }
    }

    /// Draws one template row per kind of row and copies it down the image,
    /// so even a 12-megapixel pattern takes a moment in a debug build.
    static func draw(width: Int, height: Int, pattern: Pattern) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        let rowBytes = width * 3
        image.pixels.withUnsafeMutableBufferPointer { buffer in
            guard let out = buffer.baseAddress else { return }
            switch pattern {
            case .cornerMarkers:
                let side = markerSide(width: width, height: height)
                let top = row(width: width, [(side, .red), (width - 2 * side, .grey), (side, .green)])
                let middle = row(width: width, [(width, .grey)])
                let bottom = row(width: width, [(side, .blue), (width - 2 * side, .grey), (side, .yellow)])
                for y in 0..<height {
                    let template = y < side ? top : (y >= height - side ? bottom : middle)
                    template.withUnsafeBufferPointer { source in
                        guard let base = source.baseAddress else { return }
                        (out + y * rowBytes).update(from: base, count: rowBytes)
                    }
                }
            case .noise(let seed):
                var state = seed | 1
                for index in 0..<(rowBytes * height) {
                    state ^= state << 13
                    state ^= state >> 17
                    state ^= state << 5
                    out[index] = UInt8(truncatingIfNeeded: state)
                }
            case .texture(let seed):
                // Each row is a window into one long strip of waves and noise, starting at a scattered offset.
                let period = 1021
                let strip = textureStrip(length: width + period, seed: seed)
                strip.withUnsafeBufferPointer { source in
                    guard let base = source.baseAddress else { return }
                    for y in 0..<height {
                        (out + y * rowBytes).update(from: base + (y * 389 % period) * 3, count: rowBytes)
                    }
                }
            }
        }
        return image
    }

    /// A row made of runs of colour, `(length, colour)`, clipped to `width`.
    private static func row(width: Int, _ runs: [(Int, Colour)]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * 3)
        for (length, colour) in runs {
            for _ in 0..<max(0, length) { bytes += [colour.red, colour.green, colour.blue] }
        }
        bytes += [UInt8](repeating: Colour.grey.red, count: max(0, width * 3 - bytes.count))
        return Array(bytes.prefix(width * 3))
    }

    /// `length` pixels of slow colour waves with seeded noise on top.
    private static func textureStrip(length: Int, seed: UInt32) -> [UInt8] {
        var state = seed | 1
        var bytes = [UInt8](repeating: 0, count: length * 3)
        for x in 0..<length {
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            let noise = Int(state & 63) - 32
            let phase = Double(x) / 97
            bytes[x * 3] = UInt8(clamping: 128 + Int(90 * sin(phase)) + noise)
            bytes[x * 3 + 1] = UInt8(clamping: 128 + Int(90 * sin(phase * 0.7 + 1)) + noise)
            bytes[x * 3 + 2] = UInt8(clamping: 128 + Int(60 * cos(phase * 0.3)) + noise)
        }
        return bytes
    }
}
