import Foundation

/// One completed inspection in `GET /inspections`.
public struct HistoryItem: Sendable, Hashable, Codable {
    /// The inspector of an item: a person as the contract names people.
    public typealias Inspector = WirePerson

    public var serverID: String
    public var localID: UUID
    public var templateID: String
    public var facilityID: String
    public var areaID: String?
    public var score: Double?
    public var followUpRequired: Bool
    public var parentServerID: String?
    public var completedAt: String
    public var inspector: Inspector
    /// Contract 1.1: the review state of the current revision (nil from a 1.0 server).
    public var reviewState: ReviewState?
    /// Contract 1.1: the current revision (nil from a 1.0 server).
    public var revision: Int?

    public init(
        serverID: String, localID: UUID, templateID: String, facilityID: String, areaID: String? = nil,
        score: Double? = nil, followUpRequired: Bool = false, parentServerID: String? = nil,
        completedAt: String, inspector: Inspector, reviewState: ReviewState? = nil, revision: Int? = nil
    ) {
        self.reviewState = reviewState
        self.revision = revision
        self.serverID = serverID
        self.localID = localID
        self.templateID = templateID
        self.facilityID = facilityID
        self.areaID = areaID
        self.score = score
        self.followUpRequired = followUpRequired
        self.parentServerID = parentServerID
        self.completedAt = completedAt
        self.inspector = inspector
    }

    enum CodingKeys: String, CodingKey {
        case score, inspector
        case serverID = "server_id"
        case localID = "local_id"
        case templateID = "template_id"
        case facilityID = "facility_id"
        case areaID = "area_id"
        case followUpRequired = "follow_up_required"
        case parentServerID = "parent_server_id"
        case completedAt = "completed_at"
        case reviewState = "review_state"
        case revision
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        reviewState = try? c.decodeIfPresent(ReviewState.self, forKey: .reviewState)
        revision = try? c.decodeIfPresent(Int.self, forKey: .revision)
        serverID = try c.decodeID(forKey: .serverID)
        localID = try c.decode(UUID.self, forKey: .localID)
        templateID = try c.decodeID(forKey: .templateID)
        facilityID = try c.decodeID(forKey: .facilityID)
        areaID = try c.decodeIDIfPresent(forKey: .areaID)
        score = try c.decodeIfPresent(Double.self, forKey: .score)
        followUpRequired = try c.decodeIfPresent(Bool.self, forKey: .followUpRequired) ?? false
        parentServerID = try c.decodeIDIfPresent(forKey: .parentServerID)
        completedAt = try c.decode(String.self, forKey: .completedAt)
        inspector = try c.decode(Inspector.self, forKey: .inspector)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(serverID, forKey: .serverID)
        try c.encodeUUID(localID, forKey: .localID)
        try c.encode(templateID, forKey: .templateID)
        try c.encode(facilityID, forKey: .facilityID)
        try c.encodeIfPresent(areaID, forKey: .areaID)
        try c.encodeIfPresent(score, forKey: .score)
        try c.encode(followUpRequired, forKey: .followUpRequired)
        try c.encodeIfPresent(parentServerID, forKey: .parentServerID)
        try c.encode(completedAt, forKey: .completedAt)
        try c.encode(inspector, forKey: .inspector)
        try c.encodeIfPresent(reviewState, forKey: .reviewState)
        try c.encodeIfPresent(revision, forKey: .revision)
    }
}

/// `GET /inspections` response data.
public struct HistoryPage: Sendable, Hashable, Codable {
    public var items: [HistoryItem]
    public var total: Int
    public init(items: [HistoryItem], total: Int) {
        self.items = items
        self.total = total
    }
}

/// `GET /rollup` response data.
public struct Rollup: Sendable, Hashable, Codable {
    public struct InspectorLine: Sendable, Hashable, Codable {
        public var id: String
        public var displayName: String
        public var completed: Int
        public var pendingFollowUp: Int
        public var averageScore: Double?

        public init(id: String, displayName: String, completed: Int, pendingFollowUp: Int, averageScore: Double?) {
            self.id = id
            self.displayName = displayName
            self.completed = completed
            self.pendingFollowUp = pendingFollowUp
            self.averageScore = averageScore
        }

        enum CodingKeys: String, CodingKey {
            case id, completed
            case displayName = "display_name"
            case pendingFollowUp = "pending_follow_up"
            case averageScore = "average_score"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decodeID(forKey: .id)
            displayName = try c.decodeIfPresent(String.self, forKey: .displayName) ?? ""
            completed = try c.decode(Int.self, forKey: .completed)
            pendingFollowUp = try c.decode(Int.self, forKey: .pendingFollowUp)
            averageScore = try c.decodeIfPresent(Double.self, forKey: .averageScore)
        }
    }

    public var inspectors: [InspectorLine]
    public var generatedAt: String

    public init(inspectors: [InspectorLine], generatedAt: String) {
        self.inspectors = inspectors
        self.generatedAt = generatedAt
    }

    enum CodingKeys: String, CodingKey {
        case inspectors
        case generatedAt = "generated_at"
    }
}
