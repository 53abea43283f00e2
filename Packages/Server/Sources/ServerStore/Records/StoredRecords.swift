import Foundation
import Models

/// A user as the server stores them.
public struct StoredUser: Sendable, Equatable {
    /// The user's id.
    public var id: String
    /// The name they sign in with.
    public var username: String
    /// Inspector, supervisor or admin.
    public var role: UserRole
    /// The name shown in history and the roll-up.
    public var displayName: String
    /// The argon2id hash of their password.
    public var passwordHash: String
    /// When an admin disabled the account (RFC 3339); a disabled user cannot sign in or use a token.
    public var disabledAt: String?

    /// Makes a user record.
    public init(
        id: String, username: String, role: UserRole, displayName: String, passwordHash: String,
        disabledAt: String? = nil
    ) {
        self.id = id
        self.username = username
        self.role = role
        self.displayName = displayName
        self.passwordHash = passwordHash
        self.disabledAt = disabledAt
    }

    /// Whether the account is disabled.
    public var isDisabled: Bool { disabledAt != nil }

    /// The user as the contract shows them.
    public var wire: WireUser { WireUser(id: id, username: username, role: role, displayName: displayName) }
}

/// A report's record: the latest state plus what links it.
public struct StoredReport: Sendable, Equatable {
    /// The server's id of the report.
    public var serverID: String
    /// The device's id of the report (idempotency key).
    public var localID: UUID
    /// The inspector who sent it.
    public var ownerID: String
    /// Its template.
    public var templateID: String
    /// Its facility.
    public var facilityID: String
    /// Its area, if any.
    public var areaID: String?
    /// The assignment it fulfils, if any.
    public var assignmentID: String?
    /// The report it re-inspects, by local id.
    public var parentLocalID: UUID?
    /// The report it re-inspects, by server id.
    public var parentServerID: String?
    /// When the device says it was completed (a diagnostic only).
    public var completedAtDevice: String?
    /// The number of its current revision.
    public var currentRevision: Int
    /// The score of the current revision.
    public var score: Double?
    /// The flag of the current payload, cleared once a re-inspection is accepted.
    public var followUpRequired: Bool
    /// RFC 3339 server time of the first acceptance.
    public var acceptedAt: String
    /// The review state of the current revision.
    public var reviewState: ReviewState
    /// Whether the current revision passed its template's threshold; nil when it has none.
    public var passed: Bool?
    /// How many deficiencies the current revision has.
    public var deficiencyCount: Int

    /// Makes a report record.
    public init(
        serverID: String, localID: UUID, ownerID: String, templateID: String, facilityID: String, areaID: String?,
        assignmentID: String?, parentLocalID: UUID?, parentServerID: String?, completedAtDevice: String?,
        currentRevision: Int, score: Double?, followUpRequired: Bool, acceptedAt: String,
        reviewState: ReviewState = .awaitingReview, passed: Bool? = nil, deficiencyCount: Int = 0
    ) {
        self.reviewState = reviewState
        self.passed = passed
        self.deficiencyCount = deficiencyCount
        self.serverID = serverID
        self.localID = localID
        self.ownerID = ownerID
        self.templateID = templateID
        self.facilityID = facilityID
        self.areaID = areaID
        self.assignmentID = assignmentID
        self.parentLocalID = parentLocalID
        self.parentServerID = parentServerID
        self.completedAtDevice = completedAtDevice
        self.currentRevision = currentRevision
        self.score = score
        self.followUpRequired = followUpRequired
        self.acceptedAt = acceptedAt
    }
}

/// One revision of a report; every revision is kept.
public struct StoredRevision: Sendable, Equatable {
    /// Its number, from 1.
    public var revision: Int
    /// The revision the sender edited, if any.
    public var baseRevision: Int?
    /// The payload as canonical JSON (sorted keys), compared byte for byte for replays.
    public var payloadJSON: String
    /// The issues as canonical JSON.
    public var issuesJSON: String
    /// `device`, `supervisor` or `admin`.
    public var source: String
    /// For a merged revision, what came from the server's side; nil for any other.
    public var mergedFields: [String]?
    /// The server's grade of it; nil for a revision kept from before grades were kept.
    public var grade: ReportGrade?

    /// Makes a revision record.
    public init(revision: Int, baseRevision: Int?, payloadJSON: String, issuesJSON: String, source: String) {
        self.revision = revision
        self.baseRevision = baseRevision
        self.payloadJSON = payloadJSON
        self.issuesJSON = issuesJSON
        self.source = source
    }
}

/// A stored photo's record; the bytes live in the `PhotoVault` by hash.
public struct StoredPhoto: Sendable, Equatable {
    /// The device's id of the photo (idempotency key).
    public var localID: UUID
    /// The report it belongs to.
    public var serverID: String
    /// The field it illustrates, if any.
    public var fieldID: String?
    /// The issue it illustrates, if any.
    public var issueLocalID: UUID?
    /// The SHA-256 of its bytes, lowercase hex.
    public var sha256: String
    /// Its size in bytes.
    public var byteSize: Int64

    /// Makes a photo record.
    public init(localID: UUID, serverID: String, fieldID: String?, issueLocalID: UUID?, sha256: String, byteSize: Int64)
    {
        self.localID = localID
        self.serverID = serverID
        self.fieldID = fieldID
        self.issueLocalID = issueLocalID
        self.sha256 = sha256
        self.byteSize = byteSize
    }
}

/// The review of a report's current revision, as the server keeps it.
public struct StoredReview: Sendable, Equatable {
    public var serverID: String
    public var localID: UUID
    /// The inspector whose report it is (who may read the review).
    public var ownerID: String
    /// The revision the review is of: always the report's current one.
    public var revision: Int
    public var state: ReviewState
    public var decidedBy: WirePerson?
    public var decidedAt: String?
    public var comment: String?
    public var fieldComments: [FieldComment]
    /// Its position in the order of review changes; the store assigns it when the review is saved.
    public var change: Int64

    /// Makes a review record.
    public init(
        serverID: String, localID: UUID, ownerID: String, revision: Int, state: ReviewState,
        decidedBy: WirePerson? = nil,
        decidedAt: String? = nil, comment: String? = nil, fieldComments: [FieldComment] = [], change: Int64 = 0
    ) {
        self.serverID = serverID
        self.localID = localID
        self.ownerID = ownerID
        self.revision = revision
        self.state = state
        self.decidedBy = decidedBy
        self.decidedAt = decidedAt
        self.comment = comment
        self.fieldComments = fieldComments
        self.change = change
    }

    /// A review awaiting a decision on `revision`, as every accepted revision starts.
    public static func awaiting(_ report: StoredReport, revision: Int) -> StoredReview {
        StoredReview(
            serverID: report.serverID, localID: report.localID, ownerID: report.ownerID, revision: revision,
            state: .awaitingReview)
    }
}

/// One entry of a report's append-only record.
public struct StoredReportEvent: Sendable, Equatable {
    public var serverID: String
    /// RFC 3339, the server's clock.
    public var at: String
    public var actor: WirePerson
    /// `accepted`, `amended`, `merged`, `edited`, `approved`, `returned` or `rejected`.
    public var kind: String
    public var revision: Int
    public var comment: String?
    public var fieldComments: [FieldComment]?
    /// The position of the review change the event made (commit-ordered, as `GET /reviews` cursors
    /// are): how webhooks read the record in order; 0 for events recorded before webhooks.
    public var change: Int64

    /// Makes an event.
    public init(
        serverID: String, at: String, actor: WirePerson, kind: String, revision: Int, comment: String? = nil,
        fieldComments: [FieldComment]? = nil, change: Int64 = 0
    ) {
        self.change = change
        self.serverID = serverID
        self.at = at
        self.actor = actor
        self.kind = kind
        self.revision = revision
        self.comment = comment
        self.fieldComments = fieldComments
    }
}
