/// What one compression produced: sizes before and after, and the stored photo's dimensions.
public struct CompressedPhoto: Sendable, Equatable {
    /// Size of the source file in bytes.
    public var sourceBytes: Int64
    /// Size of the JPEG written to the destination in bytes.
    public var storedBytes: Int64
    /// Width of the stored photo in pixels, upright.
    public var width: Int
    /// Height of the stored photo in pixels, upright.
    public var height: Int
    /// What the source was.
    public var sourceFormat: ImageFormat

    /// Makes a result from its parts.
    public init(sourceBytes: Int64, storedBytes: Int64, width: Int, height: Int, sourceFormat: ImageFormat) {
        self.sourceBytes = sourceBytes
        self.storedBytes = storedBytes
        self.width = width
        self.height = height
        self.sourceFormat = sourceFormat
    }
}
