import Foundation

/// Where a report's review stands (contract 1.1, "Review").
public enum ReviewState: String, Sendable, Hashable, Codable, CaseIterable {
    case awaitingReview = "awaiting_review"
    case approved
    case returned
    case rejected

    /// A state a newer server may add reads as awaiting review: nothing was decided that this client understands.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = ReviewState(rawValue: text) ?? .awaitingReview
    }
}

/// What a supervisor decides about a revision.
public enum ReviewDecision: String, Sendable, Hashable, Codable, CaseIterable {
    case approve
    case `return`
    case reject

    /// The review state the decision leaves.
    public var state: ReviewState {
        switch self {
        case .approve: .approved
        case .return: .returned
        case .reject: .rejected
        }
    }

    /// The event kind the decision records.
    public var eventKind: String { state.rawValue }
}

/// A person as review and event records name them.
public struct WirePerson: Sendable, Hashable, Codable {
    public var id: String
    public var displayName: String

    public init(id: String, displayName: String) {
        self.id = id
        self.displayName = displayName
    }

    enum CodingKeys: String, CodingKey {
        case id
        case displayName = "display_name"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeID(forKey: .id)
        displayName = try c.decodeIfPresent(String.self, forKey: .displayName) ?? ""
    }
}

/// A supervisor's comment on one field.
public struct FieldComment: Sendable, Hashable, Codable {
    public var fieldID: String
    public var comment: String

    public init(fieldID: String, comment: String) {
        self.fieldID = fieldID
        self.comment = comment
    }

    enum CodingKeys: String, CodingKey {
        case comment
        case fieldID = "field_id"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fieldID = try c.decodeID(forKey: .fieldID)
        comment = try c.decode(String.self, forKey: .comment)
    }
}

/// The review of a report's current revision.
public struct WireReview: Sendable, Hashable, Codable {
    public var serverID: String
    public var localID: UUID
    public var revision: Int
    public var state: ReviewState
    public var decidedBy: WirePerson?
    public var decidedAt: String?
    public var comment: String?
    public var fieldComments: [FieldComment]
    /// Opaque: where the review stands in the server's order of changes.
    public var change: String

    public init(
        serverID: String, localID: UUID, revision: Int, state: ReviewState, decidedBy: WirePerson? = nil,
        decidedAt: String? = nil, comment: String? = nil, fieldComments: [FieldComment] = [], change: String
    ) {
        self.serverID = serverID
        self.localID = localID
        self.revision = revision
        self.state = state
        self.decidedBy = decidedBy
        self.decidedAt = decidedAt
        self.comment = comment
        self.fieldComments = fieldComments
        self.change = change
    }

    enum CodingKeys: String, CodingKey {
        case revision, state, comment, change
        case serverID = "server_id"
        case localID = "local_id"
        case decidedBy = "decided_by"
        case decidedAt = "decided_at"
        case fieldComments = "field_comments"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        serverID = try c.decodeID(forKey: .serverID)
        localID = try c.decode(UUID.self, forKey: .localID)
        revision = try c.decode(Int.self, forKey: .revision)
        state = try c.decode(ReviewState.self, forKey: .state)
        decidedBy = try c.decodeIfPresent(WirePerson.self, forKey: .decidedBy)
        decidedAt = try c.decodeIfPresent(String.self, forKey: .decidedAt)
        comment = try c.decodeIfPresent(String.self, forKey: .comment)
        fieldComments = try c.decodeIfPresent([FieldComment].self, forKey: .fieldComments) ?? []
        change = try c.decodeIfPresent(String.self, forKey: .change) ?? ""
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(serverID, forKey: .serverID)
        try c.encodeUUID(localID, forKey: .localID)
        try c.encode(revision, forKey: .revision)
        try c.encode(state, forKey: .state)
        try c.encodeIfPresent(decidedBy, forKey: .decidedBy)
        try c.encodeIfPresent(decidedAt, forKey: .decidedAt)
        try c.encodeIfPresent(comment, forKey: .comment)
        try c.encode(fieldComments, forKey: .fieldComments)
        try c.encode(change, forKey: .change)
    }
}

/// `GET /reviews?since=` response data.
public struct ReviewsResponse: Sendable, Hashable, Codable {
    public var reviews: [WireReview]
    public var cursor: String
    public var more: Bool

    public init(reviews: [WireReview], cursor: String, more: Bool) {
        self.reviews = reviews
        self.cursor = cursor
        self.more = more
    }

    enum CodingKeys: String, CodingKey { case reviews, cursor, more }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        reviews = try c.decode([WireReview].self, forKey: .reviews)
        cursor = try c.decodeIfPresent(String.self, forKey: .cursor) ?? ""
        more = try c.decodeIfPresent(Bool.self, forKey: .more) ?? false
    }
}

/// `POST /reports/{server_id}/review` request body.
public struct ReviewRequest: Sendable, Hashable, Codable {
    public var decision: ReviewDecision
    public var revision: Int
    public var comment: String?
    public var fieldComments: [FieldComment]?

    public init(decision: ReviewDecision, revision: Int, comment: String? = nil, fieldComments: [FieldComment]? = nil) {
        self.decision = decision
        self.revision = revision
        self.comment = comment
        self.fieldComments = fieldComments
    }

    enum CodingKeys: String, CodingKey {
        case decision, revision, comment
        case fieldComments = "field_comments"
    }
}

/// `{"review": Review}`: what a decision answers, and the data of a 409 `REVISION_STALE`.
public struct ReviewResponse: Sendable, Hashable, Codable {
    public var review: WireReview
    public init(review: WireReview) { self.review = review }
}

/// One entry of a report's append-only record (`GET /reports/{server_id}/events`).
public struct WireReportEvent: Sendable, Hashable, Codable {
    public var at: String
    public var actor: WirePerson
    /// `accepted`, `amended`, `merged`, `edited`, `approved`, `returned` or `rejected`.
    public var kind: String
    public var revision: Int
    public var comment: String?
    public var fieldComments: [FieldComment]?

    public init(
        at: String, actor: WirePerson, kind: String, revision: Int, comment: String? = nil,
        fieldComments: [FieldComment]? = nil
    ) {
        self.at = at
        self.actor = actor
        self.kind = kind
        self.revision = revision
        self.comment = comment
        self.fieldComments = fieldComments
    }

    enum CodingKeys: String, CodingKey {
        case at, actor, kind, revision, comment
        case fieldComments = "field_comments"
    }
}

/// `GET /reports/{server_id}/events` response data.
public struct ReportEventsResponse: Sendable, Hashable, Codable {
    public var events: [WireReportEvent]
    public init(events: [WireReportEvent]) { self.events = events }
}
