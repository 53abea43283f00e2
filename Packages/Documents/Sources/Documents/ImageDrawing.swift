import CPangoCairo
import Foundation

extension PDFCanvas {
    /// The largest PNG decoded to be drawn, in pixels (about 64 MB of pixels).
    static let largestPNG = 16_000_000

    /// Draws `image` into the box at (`x`, `top`) of at most `maxWidth` by
    /// `maxHeight` points, keeping its shape; the height it took.
    @discardableResult
    func picture(_ image: DocumentImage, x: Double, top: Double, maxWidth: Double, maxHeight: Double) -> Double {
        guard let data = image.bytes(), let header = PictureHeader.read(data) else {
            return missing("photo unavailable", x: x, top: top, width: maxWidth)
        }
        let scale = min(maxWidth / Double(header.width), maxHeight / Double(header.height))
        let (w, h) = (Double(header.width) * scale, Double(header.height) * scale)
        switch header {
        case .jpeg:
            guard embedJPEG(data, x: left + x, top: top, width: w, height: h) else {
                return missing("photo unavailable", x: x, top: top, width: maxWidth)
            }
        case .png(let width, let height):
            guard width * height <= Self.largestPNG, drawPNG(data, x: left + x, top: top, scale: scale) else {
                return missing("photo too large to draw", x: x, top: top, width: maxWidth)
            }
        }
        return h
    }

    /// The JPEG's own bytes as the image (Cairo's MIME data): never decoded
    /// here. The surface behind it is one pixel; the bytes say the size.
    private func embedJPEG(_ data: Data, x: Double, top: Double, width: Double, height: Double) -> Bool {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1) else { return false }
        defer { cairo_surface_destroy(surface) }
        guard let copy = malloc(data.count) else { return false }
        data.withUnsafeBytes { _ = memcpy(copy, $0.baseAddress!, data.count) }
        let status = cairo_surface_set_mime_data(
            surface, CAIRO_MIME_TYPE_JPEG, copy.assumingMemoryBound(to: UInt8.self), UInt(data.count),
            { free($0) }, copy)
        guard status == CAIRO_STATUS_SUCCESS else {
            free(copy)
            return false
        }
        cairo_save(cr)
        cairo_translate(cr, x, top)
        cairo_scale(cr, width, height)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_rectangle(cr, 0, 0, 1, 1)
        cairo_fill(cr)
        cairo_restore(cr)
        return true
    }

    /// A PNG decoded by Cairo and drawn at `scale`.
    private func drawPNG(_ data: Data, x: Double, top: Double, scale: Double) -> Bool {
        final class Reader {
            let data: Data
            var offset = 0
            init(_ data: Data) { self.data = data }
        }
        let reader = Reader(data)
        let closure = Unmanaged.passUnretained(reader).toOpaque()
        let surface = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream(
                { closure, out, length in
                    guard let closure, let out else { return CAIRO_STATUS_READ_ERROR }
                    let reader = Unmanaged<Reader>.fromOpaque(closure).takeUnretainedValue()
                    let wanted = Int(length)
                    guard reader.offset + wanted <= reader.data.count else { return CAIRO_STATUS_READ_ERROR }
                    reader.data.withUnsafeBytes { bytes in
                        _ = memcpy(out, bytes.baseAddress! + reader.offset, wanted)
                    }
                    reader.offset += wanted
                    return CAIRO_STATUS_SUCCESS
                }, closure)
        }
        guard let surface else { return false }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return false }
        cairo_save(cr)
        cairo_translate(cr, x, top)
        cairo_scale(cr, scale, scale)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
        return true
    }

    /// A grey box saying why a picture is not drawn; its height.
    private func missing(_ why: String, x: Double, top: Double, width: Double) -> Double {
        let height = 40.0
        fill(x: x, top: top, width: width, height: height, color: .headerBand)
        block(why, style: .small, x: x + 6, top: top + 14, width: width - 12)
        return height
    }

    /// Photos in rows of `perRow`, each with its caption; breaks across pages between rows.
    func photoGrid(_ images: [DocumentImage], perRow: Int = 3, maxHeight: Double = 150) {
        let gap = 8.0
        let cell = (width - gap * Double(perRow - 1)) / Double(perRow)
        var index = 0
        while index < images.count {
            let row = images[index..<min(index + perRow, images.count)]
            ensure(maxHeight + 16)
            var tallest = 0.0
            for (column, image) in row.enumerated() {
                let x = Double(column) * (cell + gap)
                var height = picture(image, x: x, top: y, maxWidth: cell, maxHeight: maxHeight)
                if let caption = image.caption, !caption.isEmpty {
                    height += block(caption, style: .caption, x: x, top: y + height + 2, width: cell) + 2
                }
                tallest = max(tallest, height)
            }
            y += tallest + gap
            index += perRow
        }
    }
}
