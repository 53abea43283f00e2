import Foundation

/// How serious a flagged issue is.
public enum IssueSeverity: String, Sendable, Hashable, Codable, CaseIterable {
    case low, medium, high, critical

    /// Reads a severity as typed, case-insensitively; nil for anything else.
    public init?(typed: String) {
        self.init(rawValue: typed.trimmingCharacters(in: .whitespaces).lowercased())
    }
}

/// A problem flagged during an inspection. It belongs to its report and
/// travels with it, so it can never reach the server without one.
public struct Issue: Sendable, Hashable {
    public let localID: UUID
    public var reportLocalID: UUID
    public var severity: IssueSeverity
    public var description: String
    /// Device creation order, for listing.
    public var creationSequence: Int64

    public init(
        localID: UUID = UUID(), reportLocalID: UUID, severity: IssueSeverity, description: String,
        creationSequence: Int64 = 0
    ) {
        self.localID = localID
        self.reportLocalID = reportLocalID
        self.severity = severity
        self.description = description
        self.creationSequence = creationSequence
    }
}
