import Foundation
import Models

/// A PENDING report as the sync request sends it, read straight from its
/// row: its answers are the stored canonical JSON text, never parsed, since
/// the request carries them exactly as they are kept.
public struct OutgoingReport: Sendable, Hashable {
    /// The report.
    public var localID: UUID
    /// The server's id of an amendment.
    public var serverID: String?
    /// The server revision an amendment was made on.
    public var baseRevision: Int?
    /// The assignment it fulfils, if any.
    public var assignmentID: String?
    /// The template.
    public var templateID: String
    /// The template version its answers were given to.
    public var templateVersion: Int?
    /// The facility.
    public var facilityID: String
    /// The area, if any.
    public var areaID: String?
    /// The parent of a re-inspection.
    public var parentLocalID: UUID?
    /// The parent's server id: the report's own copy, or the parent's as this device holds it now.
    public var parentServerID: String?
    /// When it was completed (device clock; diagnostic only).
    public var completedAtDevice: Date?
    /// The answers as stored: canonical JSON text of an object.
    public var answersJSON: String
    /// The score, if the template scores.
    public var score: Double?
    /// Whether a follow-up was asked for.
    public var followUpRequired: Bool
    /// Its issues in the order flagged, each with its photos' ids.
    public var issues: [WireIssue]

    /// An outgoing report.
    public init(
        localID: UUID, serverID: String? = nil, baseRevision: Int? = nil, assignmentID: String? = nil,
        templateID: String, templateVersion: Int? = nil, facilityID: String, areaID: String? = nil,
        parentLocalID: UUID? = nil, parentServerID: String? = nil, completedAtDevice: Date? = nil,
        answersJSON: String, score: Double? = nil, followUpRequired: Bool = false, issues: [WireIssue] = []
    ) {
        self.localID = localID
        self.serverID = serverID
        self.baseRevision = baseRevision
        self.assignmentID = assignmentID
        self.templateID = templateID
        self.templateVersion = templateVersion
        self.facilityID = facilityID
        self.areaID = areaID
        self.parentLocalID = parentLocalID
        self.parentServerID = parentServerID
        self.completedAtDevice = completedAtDevice
        self.answersJSON = answersJSON
        self.score = score
        self.followUpRequired = followUpRequired
        self.issues = issues
    }
}
