import Foundation

/// A photo or logo to draw: read only when its page is drawn (so a
/// document of many photos holds one at a time), from the bytes the
/// store holds. A JPEG is embedded as those very bytes; a PNG is decoded
/// and drawn; anything else, or bytes that cannot be read, is drawn as a
/// box saying so.
public struct DocumentImage: Sendable {
    public var caption: String?
    public let bytes: @Sendable () -> Data?

    public init(caption: String? = nil, bytes: @escaping @Sendable () -> Data?) {
        self.caption = caption
        self.bytes = bytes
    }

    /// The image in the file at `path`.
    public static func file(_ path: String, caption: String? = nil) -> DocumentImage {
        DocumentImage(caption: caption) { FileManager.default.contents(atPath: path) }
    }
}

/// What kind of picture some bytes are, and their size in pixels, read from their headers alone.
enum PictureHeader: Equatable {
    case jpeg(width: Int, height: Int, components: Int)
    case png(width: Int, height: Int)

    var width: Int {
        switch self {
        case .jpeg(let width, _, _), .png(let width, _): width
        }
    }

    var height: Int {
        switch self {
        case .jpeg(_, let height, _), .png(_, let height): height
        }
    }

    /// The header of `data`: a JPEG's frame (SOF) marker, a PNG's IHDR; nil for anything else.
    static func read(_ data: Data) -> PictureHeader? {
        let bytes = [UInt8](data.prefix(2 * 1024 * 1024))
        if bytes.count > 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            return width > 0 && height > 0 ? .png(width: width, height: height) : nil
        }
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF {
                index += 1
                continue
            }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            // Baseline, extended and progressive frames (not DHT C4, JPG C8 or DAC CC).
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                let components = Int(bytes[index + 9])
                guard width > 0, height > 0, [1, 3, 4].contains(components) else { return nil }
                return .jpeg(width: width, height: height, components: components)
            }
            guard length >= 2 else { return nil }
            index += 2 + length
        }
        return nil
    }
}

extension DocumentImage {
    /// Why `data` cannot be drawn as a picture (a logo checked as it is
    /// set); nil when it can: a JPEG with a frame header, or a PNG of at
    /// most 16 million pixels.
    public static func problem(_ data: Data) -> String? {
        guard let header = PictureHeader.read(data) else {
            return "is neither a JPEG nor a PNG whose header can be read"
        }
        if case .png(let width, let height) = header, width * height > PDFCanvas.largestPNG {
            return "is a PNG too large to draw (\(width) x \(height) pixels)"
        }
        return nil
    }
}
