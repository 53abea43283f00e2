import Foundation
internal import CPNG

/// Decodes a PNG source of any colour type and bit depth to 8-bit RGB with
/// libpng's simplified API, compositing any transparency on white.
///
/// The simplified API catches libpng's longjmp errors inside C and reports
/// them through its return value, so no longjmp ever crosses a Swift frame.
enum PNGDecoder {
    static func decode(_ file: SourceFile) throws(ImagingError) -> RGBImage {
        // A duplicate descriptor, so that fclose leaves the source's own open.
        let copy = dup(file.descriptor)
        guard copy >= 0 else { throw ImagingError.unreadable(file.url, errno: errno) }
        guard let stream = fdopen(copy, "rb") else {
            let code = errno
            close(copy)
            throw ImagingError.unreadable(file.url, errno: code)
        }
        defer { fclose(stream) }
        // dup shares the file offset; the header is read from the start.
        rewind(stream)

        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_stdio(&image, stream) != 0 else {
            throw ImagingError.damaged(file.url, format: .png, detail: message(of: image))
        }
        let width = Int(image.width), height = Int(image.height)
        try ImageLimits.check(width: width, height: height, of: file.url)

        image.format = UInt32(PNG_FORMAT_RGB)
        var white = png_color(red: 255, green: 255, blue: 255)
        var result = RGBImage(width: width, height: height)
        let finished = result.pixels.withUnsafeMutableBytes { out in
            png_image_finish_read(&image, &white, out.baseAddress, Int32(width * RGBImage.channels), nil)
        }
        guard finished != 0 else {
            throw ImagingError.damaged(file.url, format: .png, detail: message(of: image))
        }
        return result
    }

    /// libpng's message for the last failure, from the fixed-size field in `png_image`.
    static func message(of image: png_image) -> String {
        let text = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "libpng gave no reason" : text
    }
}
