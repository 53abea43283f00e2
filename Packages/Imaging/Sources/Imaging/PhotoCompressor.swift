import Foundation

/// Compresses one imported photo into the JPEG the app stores.
///
/// Holds only its settings, so one value can be shared between tasks; each
/// call opens its own library handles.
public struct PhotoCompressor: Sendable {
    /// The quality and size every photo is compressed to.
    public let settings: CompressionSettings

    /// A compressor with already-checked settings.
    public init(settings: CompressionSettings = .standard) {
        self.settings = settings
    }

    /// Decodes `source` (JPEG or PNG, judged by its bytes), turns it upright
    /// by its EXIF orientation, scales it so the long edge is at most
    /// `maxLongEdge` (never up), and encodes a JPEG at `quality` into
    /// `destination`, written fully, flushed and closed; the caller renames it.
    ///
    /// The source is only read, never modified, and `destination` may not be
    /// the source. At most one decoded image is in memory at a time, next to
    /// the stored-size pixels being built from it.
    public func compress(source: URL, to destination: URL) throws(ImagingError) -> CompressedPhoto {
        let file = try SourceFile(source)
        let format = try ImageProbe.format(of: file)
        try DestinationFile.refuseOverwriting(file, with: destination)

        let upright = try uprightPixels(of: file, format: format)
        let stored = try JPEGEncoder.encode(upright, quality: settings.quality, destination: destination) {
            jpeg throws(ImagingError) in
            try DestinationFile.write([jpeg], to: destination)
        }
        return CompressedPhoto(
            sourceBytes: file.size, storedBytes: stored,
            width: upright.width, height: upright.height, sourceFormat: format
        )
    }

    /// The stored-size, upright pixels of the source; the decoded source is gone when this returns.
    private func uprightPixels(of file: SourceFile, format: ImageFormat) throws(ImagingError) -> RGBImage {
        let maxLongEdge = settings.maxLongEdge
        switch format {
        case .jpeg:
            let decoded = try JPEGDecoder.decode(file, fittingLongEdge: maxLongEdge)
            let target = fittedSize(width: decoded.sourceWidth, height: decoded.sourceHeight, maxLongEdge: maxLongEdge)
            return Resampler.resample(
                decoded.image, width: target.width, height: target.height, orientation: decoded.orientation)
        case .png:
            let image = try PNGDecoder.decode(file)
            let target = fittedSize(width: image.width, height: image.height, maxLongEdge: maxLongEdge)
            return Resampler.resample(image, width: target.width, height: target.height, orientation: .topLeft)
        }
    }
}
