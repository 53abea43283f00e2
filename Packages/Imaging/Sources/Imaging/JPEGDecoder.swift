import Foundation
internal import CTurboJPEG

/// Decodes a JPEG source to RGB with libturbojpeg, shrinking it in the DCT
/// (1/2, 1/4 or 1/8) when the result would still cover the stored size, so
/// a large photo never exists in memory at full size.
enum JPEGDecoder {
    /// What the decoder produced: pixels in the stored frame and the orientation to show them upright.
    struct Decoded {
        var image: RGBImage
        var orientation: Orientation
        /// Width and height of the source before any DCT scaling, in the stored frame.
        var sourceWidth: Int
        var sourceHeight: Int
    }

    /// Decodes `file`, shrunk in the DCT as far as still covers the size that
    /// fits `maxLongEdge`; nil decodes at full size.
    static func decode(_ file: SourceFile, fittingLongEdge maxLongEdge: Int?) throws(ImagingError) -> Decoded {
        let bytes = try file.readAll(limit: ImageLimits.maxJPEGFileBytes)
        guard let handle = TurboJPEGHandle(.decompressor) else {
            throw ImagingError.tooLarge(file.url, what: "there is not enough memory to start the JPEG decoder")
        }
        let result: Result<Decoded, ImagingError> = bytes.withUnsafeBufferPointer { jpeg in
            guard let base = jpeg.baseAddress else {
                return .failure(.damaged(file.url, format: .jpeg, detail: "the file is empty"))
            }
            var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
            guard
                tjDecompressHeader3(handle.raw, base, UInt(jpeg.count), &width, &height, &subsampling, &colourspace)
                    == 0
            else {
                return .failure(.damaged(file.url, format: .jpeg, detail: handle.lastError))
            }
            let (w, h) = (Int(width), Int(height))
            do throws(ImagingError) {
                try ImageLimits.check(width: w, height: h, of: file.url)
            } catch {
                return .failure(error)
            }
            if colourspace == Int32(TJCS_CMYK.rawValue) || colourspace == Int32(TJCS_YCCK.rawValue) {
                return .failure(.notAnImage(file.url, detected: "a CMYK (print) JPEG"))
            }
            let orientation = Orientation(exifOf: jpeg)
            let factor =
                maxLongEdge.map { edge in
                    scalingFactor(width: w, height: h, atLeast: fittedSize(width: w, height: h, maxLongEdge: edge))
                } ?? tjscalingfactor(num: 1, denom: 1)
            let scaledWidth = scaled(w, factor), scaledHeight = scaled(h, factor)
            var pixels = [UInt8](repeating: 0, count: scaledWidth * scaledHeight * RGBImage.channels)
            let status = pixels.withUnsafeMutableBufferPointer { out in
                tjDecompress2(
                    handle.raw, base, UInt(jpeg.count), out.baseAddress,
                    Int32(scaledWidth), 0, Int32(scaledHeight), Int32(TJPF_RGB.rawValue), 0
                )
            }
            // A warning (a truncated file, corrupt data) means some pixels were guessed:
            // evidence is refused rather than stored with grey patches.
            guard status == 0 else {
                return .failure(.damaged(file.url, format: .jpeg, detail: handle.lastError))
            }
            let image = RGBImage(width: scaledWidth, height: scaledHeight, pixels: pixels)
            return .success(Decoded(image: image, orientation: orientation, sourceWidth: w, sourceHeight: h))
        }
        return try result.get()
    }

    /// The strongest of 1/8, 1/4, 1/2 that keeps both sides at least `target`, else 1/1.
    static func scalingFactor(width: Int, height: Int, atLeast target: (width: Int, height: Int)) -> tjscalingfactor {
        for denominator in [8, 4, 2] {
            let factor = tjscalingfactor(num: 1, denom: Int32(denominator))
            if scaled(width, factor) >= target.width && scaled(height, factor) >= target.height {
                return factor
            }
        }
        return tjscalingfactor(num: 1, denom: 1)
    }

    /// TurboJPEG's own rounding of a scaled side (the TJSCALED macro).
    static func scaled(_ side: Int, _ factor: tjscalingfactor) -> Int {
        let num = Int(factor.num), denom = Int(factor.denom)
        return (side * num + denom - 1) / denom
    }
}
