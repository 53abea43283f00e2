import Foundation

/// An inspection report as the device keeps it (ARCHITECTURE.md, "Storage").
public struct Report: Sendable, Hashable {
    /// Made on the device at start; the report's identity everywhere, forever.
    public let localID: UUID
    public var assignmentID: String?
    public var templateID: String
    /// The version of the template its answers were given to; nil for a
    /// report from before the device kept versions whose template was gone.
    public var templateVersion: Int?
    /// The last move onto a newer template version, kept as a note until the report is completed.
    public var templateMove: TemplateMove?
    /// The inspector chose to leave it on its template version (`jqc migrate --keep-version`).
    public var keepsTemplateVersion = false
    public var facilityID: String
    public var areaID: String?
    /// State, server id, revisions, attempts: changed only through transitions (`apply(_:)`).
    public private(set) var lifecycle: ReportLifecycle
    public var answers: Answers
    /// Version of the answers payload format this report was written in.
    public var schemaVersion: Int
    /// The device clock at the last change; shown for diagnosis, never used for decisions.
    public var updatedAtDevice: Date
    /// The device clock when completed; sent as `completed_at_device`, diagnostic only.
    public var completedAtDevice: Date?
    /// The score of the answers, or nil when nothing scoreable is answered.
    public var score: Double?
    /// Re-inspection link to the parent, by local id (always) and server id (when known).
    public var parentLocalID: UUID?
    public var parentServerID: String?
    /// The inspector asked for a re-inspection of this report.
    public var followUpRequired: Bool
    /// The fields of the last accepted revision that came from the server's side of a merge (contract 1.1).
    public var mergedFields: [String] = []
    /// Monotonic creation order on this device: the upload order, never the clock.
    public var creationSequence: Int64

    public init(
        localID: UUID = UUID(), assignmentID: String? = nil, templateID: String, templateVersion: Int? = nil,
        facilityID: String,
        areaID: String? = nil, answers: Answers = Answers(), schemaVersion: Int = Report.currentSchemaVersion,
        updatedAtDevice: Date = Date(), parentLocalID: UUID? = nil, parentServerID: String? = nil,
        followUpRequired: Bool = false, creationSequence: Int64 = 0
    ) {
        self.localID = localID
        self.assignmentID = assignmentID
        self.templateID = templateID
        self.templateVersion = templateVersion
        self.facilityID = facilityID
        self.areaID = areaID
        self.lifecycle = ReportLifecycle()
        self.answers = answers
        self.schemaVersion = schemaVersion
        self.updatedAtDevice = updatedAtDevice
        self.parentLocalID = parentLocalID
        self.parentServerID = parentServerID
        self.followUpRequired = followUpRequired
        self.creationSequence = creationSequence
    }

    /// Rebuilds a report read back from the store.
    public init(
        restoring localID: UUID, lifecycle: ReportLifecycle, assignmentID: String?, templateID: String,
        facilityID: String, areaID: String?, answers: Answers, schemaVersion: Int, updatedAtDevice: Date,
        completedAtDevice: Date?, score: Double?, parentLocalID: UUID?, parentServerID: String?,
        followUpRequired: Bool, creationSequence: Int64
    ) {
        self.localID = localID
        self.lifecycle = lifecycle
        self.assignmentID = assignmentID
        self.templateID = templateID
        self.facilityID = facilityID
        self.areaID = areaID
        self.answers = answers
        self.schemaVersion = schemaVersion
        self.updatedAtDevice = updatedAtDevice
        self.completedAtDevice = completedAtDevice
        self.score = score
        self.parentLocalID = parentLocalID
        self.parentServerID = parentServerID
        self.followUpRequired = followUpRequired
        self.creationSequence = creationSequence
    }

    /// The answers payload format this app writes.
    public static let currentSchemaVersion = 1

    /// Applies an event to the report's lifecycle (`ReportLifecycle.apply(_:)`):
    /// the effects to perform, or the refusal, which changes nothing.
    @discardableResult
    public mutating func apply(_ event: ReportEvent) throws(ModelsError) -> [ReportEffect] {
        try lifecycle.apply(event)
    }

    /// The report's state.
    public var state: ReportState { lifecycle.state }
    /// The server's id, once accepted.
    public var serverID: String? { lifecycle.serverID }
}
