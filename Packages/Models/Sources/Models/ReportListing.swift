import Foundation

/// One line of `jqc list`: what a listing shows of a report, read without
/// decoding its answers.
public struct ReportListing: Sendable, Equatable {
    public var localID: String
    public var state: String
    public var templateID: String
    /// The cached template's name, when the template is cached.
    public var templateName: String?
    public var facilityID: String
    public var areaID: String?
    public var serverID: String?
    public var score: Double?
    public var followUpRequired: Bool
    public var parentLocalID: String?
    /// The stored review's state (`awaiting_review`, `approved`, `returned`, `rejected`); nil before one arrived.
    public var reviewState: String?

    /// A listing line as read.
    public init(
        localID: String, state: String, templateID: String, templateName: String?, facilityID: String,
        areaID: String?, serverID: String?, score: Double?, followUpRequired: Bool, parentLocalID: String?,
        reviewState: String?
    ) {
        self.localID = localID
        self.state = state
        self.templateID = templateID
        self.templateName = templateName
        self.facilityID = facilityID
        self.areaID = areaID
        self.serverID = serverID
        self.score = score
        self.followUpRequired = followUpRequired
        self.parentLocalID = parentLocalID
        self.reviewState = reviewState
    }
}
