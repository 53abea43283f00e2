import Foundation

/// What typed input may depend on beyond the text itself: the moment it was
/// typed and the report it belongs to. Built by the caller, so field types
/// stay free of clocks and hashing.
public struct InputContext: Sendable, Hashable {
    /// The device's clock when the answer was typed; `today` and signatures use it (in UTC).
    public var deviceTime: Date
    /// Hex SHA-256 of the report's content as it stands, computed by the caller;
    /// a signature records it.
    public var contentDigest: String
    /// The report's local id, when known, so messages can show the exact command to run.
    public var reportLocalID: String?

    /// Makes a context.
    public init(deviceTime: Date, contentDigest: String, reportLocalID: String? = nil) {
        self.deviceTime = deviceTime
        self.contentDigest = contentDigest
        self.reportLocalID = reportLocalID
    }
}
