import Foundation
internal import CPNG

/// Writes RGB pixels as a PNG in any of the layouts tests need, with
/// libpng's simplified write API, for synthetic test photos.
enum PNGWriter {
    static func write(_ image: RGBImage, layout: SyntheticImage.PNGLayout, to url: URL) throws(ImagingError) {
        let (width, height) = (image.width, image.height)
        let side = SyntheticImage.markerSide(width: width, height: height)
        func alpha(_ x: Int, _ y: Int) -> UInt8 { x >= width - side && y >= height - side ? 0 : 255 }
        func grey(_ i: Int) -> UInt8 {
            let sum = 299 * Int(image.pixels[i]) + 587 * Int(image.pixels[i + 1]) + 114 * Int(image.pixels[i + 2])
            return UInt8(sum / 1000)
        }

        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(width)
        png.height = UInt32(height)
        let colour = UInt32(PNG_FORMAT_FLAG_COLOR), hasAlpha = UInt32(PNG_FORMAT_FLAG_ALPHA)
        var bytes: [UInt8] = []
        var wide: [UInt16] = []
        var colourMap: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)

        switch layout {
        case .rgb:
            png.format = colour
            bytes = image.pixels
        case .rgba, .greyAlpha:
            png.format = layout == .rgba ? colour | hasAlpha : hasAlpha
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 3
                    if layout == .rgba {
                        bytes += [image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]]
                    } else {
                        bytes.append(grey(i))
                    }
                    bytes.append(alpha(x, y))
                }
            }
        case .grey:
            png.format = 0
            for i in stride(from: 0, to: image.pixels.count, by: 3) { bytes.append(grey(i)) }
        case .rgb16:
            png.format = colour | UInt32(PNG_FORMAT_FLAG_LINEAR)
            wide = image.pixels.map(linear16)
        case .palette:
            png.format = colour | UInt32(PNG_FORMAT_FLAG_COLORMAP)
            png.colormap_entries = 256
            for index in 0..<256 {
                colourMap += [
                    UInt8((index >> 5) * 255 / 7), UInt8((index >> 2 & 7) * 255 / 7), UInt8((index & 3) * 255 / 3),
                ]
            }
            for i in stride(from: 0, to: image.pixels.count, by: 3) {
                let r = Int(image.pixels[i]) >> 5, g = Int(image.pixels[i + 1]) >> 5, b = Int(image.pixels[i + 2]) >> 6
                bytes.append(UInt8(r << 5 | g << 2 | b))
            }
        }

        let written: Int32
        if layout == .rgb16 {
            written = wide.withUnsafeBytes { png_image_write_to_file(&png, url.path, 0, $0.baseAddress, 0, nil) }
        } else {
            written = bytes.withUnsafeBytes { pixels in
                colourMap.withUnsafeBytes { map in
                    png_image_write_to_file(
                        &png, url.path, 0, pixels.baseAddress, 0, layout == .palette ? map.baseAddress : nil)
                }
            }
        }
        png_image_free(&png)
        guard written != 0 else {
            throw ImagingError.writeFailed(url, reason: "libpng refused it: \(PNGDecoder.message(of: png))")
        }
    }

    /// An 8-bit sRGB value as 16-bit linear light, so the 16-bit PNG looks the same.
    private static func linear16(_ value: UInt8) -> UInt16 {
        let v = Double(value) / 255
        let linear = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        return UInt16((linear * 65535).rounded())
    }
}
