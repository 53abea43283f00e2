import Foundation
internal import CTurboJPEG

/// Encodes RGB pixels as a baseline JPEG with libturbojpeg (4:2:0 chroma by default,
/// no metadata) and hands the bytes to `body` while they live.
enum JPEGEncoder {
    /// How much colour detail is kept relative to brightness.
    enum Chroma {
        /// 4:2:0, colour at half resolution each way: what photos use.
        case halved
        /// 4:4:4, colour at full resolution: crisp synthetic edges.
        case full

        var turboJPEG: TJSAMP { self == .halved ? TJSAMP_420 : TJSAMP_444 }
    }

    static func encode<R>(
        _ image: RGBImage, quality: Int, chroma: Chroma = .halved, destination: URL,
        _ body: (UnsafeRawBufferPointer) throws(ImagingError) -> R
    ) throws(ImagingError) -> R {
        guard let handle = TurboJPEGHandle(.compressor) else {
            throw ImagingError.writeFailed(destination, reason: "there is not enough memory to start the JPEG encoder")
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { src in
            tjCompress2(
                handle.raw, src.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGB.rawValue),
                &output, &size, Int32(chroma.turboJPEG.rawValue), Int32(quality), 0
            )
        }
        defer { tjFree(output) }
        guard status == 0, let output else {
            throw ImagingError.writeFailed(destination, reason: "the JPEG encoder failed: \(handle.lastError)")
        }
        return try body(UnsafeRawBufferPointer(start: output, count: Int(size)))
    }
}
