import Foundation
internal import CExif

/// Builds Exif APP1 segments with libexif, for synthetic test photos.
enum ExifSegment {
    /// A complete APP1 segment (marker, length, "Exif" payload) holding only an orientation tag.
    static func orientation(_ value: Int, for url: URL) throws(ImagingError) -> [UInt8] {
        guard (1...8).contains(value) else {
            throw ImagingError(
                .invalidSettings, "EXIF orientation \(value) is outside 1...8. Choose a value from 1 to 8.")
        }
        let failure = ImagingError.writeFailed(url, reason: "libexif could not build the Exif segment")
        guard let data = exif_data_new() else { throw failure }
        defer { exif_data_unref(data) }
        guard let ifd0 = data.pointee.ifd.0, let entry = exif_entry_new() else { throw failure }
        defer { exif_entry_unref(entry) }
        exif_content_add_entry(ifd0, entry)
        exif_entry_initialize(entry, EXIF_TAG_ORIENTATION)
        guard let slot = entry.pointee.data else { throw failure }
        exif_set_short(slot, exif_data_get_byte_order(data), ExifShort(value))

        var saved: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt32 = 0
        exif_data_save_data(data, &saved, &size)
        defer { free(saved) }
        guard let saved, size > 0, size <= 65_533 else { throw failure }
        let length = Int(size) + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]
            + Array(UnsafeBufferPointer(start: saved, count: Int(size)))
    }
}
