import Foundation

/// The image formats a photo can be imported from.
public enum ImageFormat: String, Sendable, Equatable {
    /// JPEG (JFIF or Exif), the format of camera photos.
    case jpeg
    /// PNG, the format of screenshots and exported graphics.
    case png
}

/// Tells what a file is from its first bytes, never from its name.
public enum ImageProbe {
    /// The format of the file at `url`, judged by its magic bytes.
    ///
    /// Throws `.unreadable` if the file cannot be opened and read, and
    /// `.notAnImage` if it is empty or anything other than JPEG or PNG.
    public static func format(of url: URL) throws(ImagingError) -> ImageFormat {
        let file = try SourceFile(url)
        return try format(of: file)
    }

    static func format(of file: SourceFile) throws(ImagingError) -> ImageFormat {
        let head = try file.read(upTo: 16, at: 0)
        if let format = recognise(head) { return format }
        throw ImagingError.notAnImage(file.url, detected: otherKind(head))
    }

    static func recognise(_ head: [UInt8]) -> ImageFormat? {
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        return nil
    }

    /// A name for formats people commonly try to import, so the message can say what the file is.
    static func otherKind(_ head: [UInt8]) -> String? {
        func ascii(_ range: Range<Int>) -> String? {
            guard head.count >= range.upperBound else { return nil }
            return String(decoding: head[range], as: UTF8.self)
        }
        if head.isEmpty { return "empty" }
        if ascii(0..<4) == "GIF8" { return "a GIF image" }
        if ascii(0..<4) == "RIFF", ascii(8..<12) == "WEBP" { return "a WebP image" }
        if ascii(4..<8) == "ftyp", let brand = ascii(8..<12), ["heic", "heix", "mif1", "msf1", "avif"].contains(brand) {
            return brand == "avif" ? "an AVIF image" : "a HEIC image"
        }
        if ascii(0..<2) == "BM" { return "a BMP image" }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return "a TIFF image"
        }
        if ascii(0..<4) == "%PDF" { return "a PDF document" }
        return nil
    }
}
