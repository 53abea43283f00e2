/// How imported photos are compressed: JPEG quality and the longest edge kept.
///
/// Values are checked when the settings are made, so a `PhotoCompressor`
/// never sees an out-of-range value.
public struct CompressionSettings: Sendable, Equatable {
    /// The JPEG quality range accepted, worst to best.
    public static let qualityRange = 1...100
    /// The longest-edge range accepted, in pixels.
    public static let maxLongEdgeRange = 64...16384

    /// The product's defaults: quality 80, long edge at most 2048 pixels.
    public static let standard = CompressionSettings(checkedQuality: 80, maxLongEdge: 2048)

    /// JPEG quality of the stored photo, 1 (smallest) to 100 (best).
    public let quality: Int
    /// The longest edge of the stored photo in pixels; larger photos are scaled down, smaller ones are never scaled up.
    public let maxLongEdge: Int

    /// Checks both values and refuses, naming every one that is out of range.
    public init(quality: Int = 80, maxLongEdge: Int = 2048) throws(ImagingError) {
        var problems: [String] = []
        if !Self.qualityRange.contains(quality) {
            problems.append("quality \(quality) is outside 1...100")
        }
        if !Self.maxLongEdgeRange.contains(maxLongEdge) {
            problems.append("maximum edge \(maxLongEdge) is outside 64...16384 pixels")
        }
        guard problems.isEmpty else {
            let list = problems.joined(separator: "; ")
            throw ImagingError(
                .invalidSettings,
                "Photo compression settings refused: \(list). Choose values inside those ranges.",
                context: list
            )
        }
        self.init(checkedQuality: quality, maxLongEdge: maxLongEdge)
    }

    private init(checkedQuality quality: Int, maxLongEdge: Int) {
        self.quality = quality
        self.maxLongEdge = maxLongEdge
    }
}
