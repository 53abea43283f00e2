internal import CExif

/// The EXIF orientation of a stored JPEG: where its first row and first
/// column belong when the photo is shown upright (TIFF tag 274, values 1-8).
enum Orientation: Int, Sendable, CaseIterable {
    case topLeft = 1
    case topRight = 2
    case bottomRight = 3
    case bottomLeft = 4
    case leftTop = 5
    case rightTop = 6
    case rightBottom = 7
    case leftBottom = 8

    /// True when the upright photo's width is the stored height.
    var swapsAxes: Bool { rawValue >= 5 }

    /// Where the stored pixel (`x`, `y`) of a `width` x `height` image lands in the upright image.
    func upright(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .topLeft: (x, y)
        case .topRight: (width - 1 - x, y)
        case .bottomRight: (width - 1 - x, height - 1 - y)
        case .bottomLeft: (x, height - 1 - y)
        case .leftTop: (y, x)
        case .rightTop: (height - 1 - y, x)
        case .rightBottom: (height - 1 - y, width - 1 - x)
        case .leftBottom: (y, width - 1 - x)
        }
    }

    /// The orientation recorded in a JPEG's Exif APP1 segment; `.topLeft` when there is none or it is not 1-8.
    init(exifOf jpeg: UnsafeBufferPointer<UInt8>) {
        self = .topLeft
        guard let base = jpeg.baseAddress, jpeg.count > 4 else { return }
        // libexif walks the JPEG markers itself and stops at the first one that is not APPn.
        let length = UInt32(clamping: jpeg.count)
        guard let data = exif_data_new_from_data(base, length) else { return }
        defer { exif_data_unref(data) }
        guard let ifd0 = data.pointee.ifd.0,
            let entry = exif_content_get_entry(ifd0, EXIF_TAG_ORIENTATION),
            entry.pointee.format == EXIF_FORMAT_SHORT,
            entry.pointee.components >= 1,
            let value = entry.pointee.data
        else { return }
        let raw = exif_get_short(value, exif_data_get_byte_order(data))
        self = Orientation(rawValue: Int(raw)) ?? .topLeft
    }
}
