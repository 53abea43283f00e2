import Foundation
import ServerStore

#if canImport(Glibc)
    import Glibc
#endif

/// What a photo is by its bytes: a JPEG or a PNG, told by the first bytes
/// of the file (its magic number) whatever it was sent as. Nothing else (an
/// SVG, an HTML page) is stored as a photo, so a photo served back is never
/// a document a browser would run.
enum PhotoKind: Sendable {
    case jpeg, png

    /// The kind of the file open at `descriptor`, read from its start (its offset left as it was); nil for neither.
    static func of(descriptor: Int32) -> PhotoKind? {
        var head = [UInt8](repeating: 0, count: 8)
        let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 8, 0) }
        if count >= 3 && head[0..<3] == [0xFF, 0xD8, 0xFF] { return .jpeg }
        if count == 8 && head == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] { return .png }
        return nil
    }

    /// The refusal of a file that is neither: 415 `UNSUPPORTED_MEDIA_TYPE`.
    static func refusal() -> ServerError {
        ServerError.unsupportedMediaType("a photo must be a JPEG or PNG file; these bytes are neither")
    }

    /// The `Content-Type` a photo of this kind is served with.
    var contentType: String { self == .png ? "image/png" : "image/jpeg" }

    /// The `Content-Type` of the stored photo open at `descriptor` (JPEG for one stored before kinds were checked).
    static func contentType(of descriptor: Int32) -> String { (of(descriptor: descriptor) ?? .jpeg).contentType }
}
