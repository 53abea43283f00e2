import FieldTypes
import Foundation
import Models

/// What `GET /exports/reports` and `jqc-server export` write.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// JSON Lines: one report a line, then `{"end": true, "count", "change"}`.
    case jsonl
    /// One table of one template's reports, a `field:<id>` column per field of any of its versions.
    case csv
}

/// Which reports an export takes: those whose review change is after
/// `since` (all without it), narrowed by template, facility, review state
/// and the window of `completed_at`; and what it reads of each beyond the
/// report itself.
public struct ExportQuery: Sendable, Equatable {
    /// The `change` of an earlier export or review, as the client sent it.
    public var since: String?
    public var templateID: String?
    public var facilityID: String?
    public var reviewState: ReviewState?
    /// Only reports first accepted at or after this moment, written as the
    /// stores write `accepted_at` (RFC 3339 UTC, whole seconds).
    public var acceptedFrom: String?
    /// Only reports first accepted before this moment, written the same way.
    public var acceptedBefore: String?
    /// Read the names of each report's site, area and inspector.
    public var readsNames = false
    /// Read the action each issue of a report became.
    public var readsIssueActions = false

    /// Makes a query.
    public init(
        since: String? = nil, templateID: String? = nil, facilityID: String? = nil, reviewState: ReviewState? = nil,
        acceptedFrom: String? = nil, acceptedBefore: String? = nil
    ) {
        self.since = since
        self.templateID = templateID
        self.facilityID = facilityID
        self.reviewState = reviewState
        self.acceptedFrom = acceptedFrom
        self.acceptedBefore = acceptedBefore
    }

    /// The position after which reports are taken, for data of `generation`:
    /// 0 without `since`; 400 `CURSOR_INVALID` for a cursor this data did not issue.
    public func position(generation: String) throws(ServerError) -> Int64 {
        guard let since, !since.isEmpty else { return 0 }
        guard let position = ReviewCursor.decode(since, generation: generation) else {
            throw ServerError.cursorInvalid(
                "'since' is not a change of this server's data: \(OneLine.quote(since, limit: 40)); export again without it"
            )
        }
        return position
    }
}

/// One report of an export as the store read it, in its snapshot: its
/// current revision and review, as the stored text (ids, payload, issues and
/// field comments are copied into the export, never decoded and encoded
/// again, because an export writes millions of them).
public struct ExportedReport: Sendable {
    public var serverID: String
    /// The device's id, lowercase, as stored.
    public var localID: String
    public var templateID: String
    public var facilityID: String
    public var areaID: String?
    public var assignmentID: String?
    public var parentLocalID: String?
    public var parentServerID: String?
    public var completedAtDevice: String?
    /// RFC 3339 server time of the first acceptance (`completed_at`).
    public var acceptedAt: String
    /// The current revision's number, base and score.
    public var revision: Int
    public var baseRevision: Int?
    public var score: Double?
    /// The flag as the report stands (a re-inspection clears it).
    public var followUpRequired: Bool
    /// The current revision's payload and issues, canonical JSON as stored.
    public var payloadJSON: String
    public var issuesJSON: String
    /// When the current revision was accepted (RFC 3339, the server's clock).
    public var revisionAcceptedAt: String
    /// The user name of the report's inspector.
    public var inspector: String
    /// The review of the current revision.
    public var review: ExportedReview
    /// The report's photos, in upload order.
    public var photos: [StoredPhoto]
    /// The current revision's grade as stored (`ReportGrade.json`); nil for
    /// a revision kept from before grades were kept.
    public var gradeJSON: String?
    /// The names of the report's site and area and its inspector's display
    /// name, when the query `readsNames` (nil otherwise, or for a site or
    /// area the server no longer has).
    public var facilityName: String?
    public var areaName: String?
    public var inspectorName: String?
    /// The action each issue became, by the issue's local id (lowercase),
    /// when the query `readsIssueActions`; an issue without one is absent.
    public var issueActions: [String: ExportedIssueAction] = [:]

    /// Groups what the store read.
    public init(
        serverID: String, localID: String, templateID: String, facilityID: String, areaID: String?,
        assignmentID: String?,
        parentLocalID: String?, parentServerID: String?, completedAtDevice: String?, acceptedAt: String, revision: Int,
        baseRevision: Int?, score: Double?, followUpRequired: Bool, payloadJSON: String, issuesJSON: String,
        revisionAcceptedAt: String, inspector: String, review: ExportedReview, photos: [StoredPhoto] = []
    ) {
        self.serverID = serverID
        self.localID = localID
        self.templateID = templateID
        self.facilityID = facilityID
        self.areaID = areaID
        self.assignmentID = assignmentID
        self.parentLocalID = parentLocalID
        self.parentServerID = parentServerID
        self.completedAtDevice = completedAtDevice
        self.acceptedAt = acceptedAt
        self.revision = revision
        self.baseRevision = baseRevision
        self.score = score
        self.followUpRequired = followUpRequired
        self.payloadJSON = payloadJSON
        self.issuesJSON = issuesJSON
        self.revisionAcceptedAt = revisionAcceptedAt
        self.inspector = inspector
        self.review = review
        self.photos = photos
    }
}

/// The review of an exported report's current revision, as stored.
public struct ExportedReview: Sendable {
    public var revision: Int
    public var state: ReviewState
    public var decidedByID: String?
    public var decidedByName: String?
    public var decidedAt: String?
    public var comment: String?
    /// The field comments, canonical JSON as stored (`[]` for none).
    public var fieldCommentsJSON: String
    /// Its position in the order of review changes.
    public var change: Int64

    /// Groups what the store read.
    public init(
        revision: Int, state: ReviewState, decidedByID: String?, decidedByName: String?, decidedAt: String?,
        comment: String?,
        fieldCommentsJSON: String, change: Int64
    ) {
        self.revision = revision
        self.state = state
        self.decidedByID = decidedByID
        self.decidedByName = decidedByName
        self.decidedAt = decidedAt
        self.comment = comment
        self.fieldCommentsJSON = fieldCommentsJSON.isEmpty ? "[]" : fieldCommentsJSON
        self.change = change
    }
}

/// A version a template published, as kept in `template_versions`.
public struct PublishedVersion: Sendable, Equatable {
    public var templateID: String
    public var version: Int
    /// RFC 3339, or empty for versions imported before versions were recorded.
    public var publishedAt: String
    /// The version's `form_schema` as stored.
    public var schemaJSON: String

    /// Makes a record.
    public init(templateID: String, version: Int, publishedAt: String, schemaJSON: String) {
        self.templateID = templateID
        self.version = version
        self.publishedAt = publishedAt
        self.schemaJSON = schemaJSON
    }
}

/// The reports of one export, read from one consistent snapshot of the
/// database in order of review change, a bounded page at a time. It holds a
/// connection and a read transaction until `close`, which must be called
/// (exactly once) however the export ends. Used by one thread at a time.
public protocol ExportReader: AnyObject {
    /// The data's generation, as in every `change`.
    var generation: String { get }
    /// The highest review position in the snapshot: the `change` of the
    /// end line (a later pull from it misses nothing and repeats nothing).
    var lastChange: Int64 { get }
    /// How many reports the export holds (for a progress bar).
    var matching: Int { get }
    /// Every version every template published, in the snapshot.
    var versions: [PublishedVersion] { get }
    /// The next page of matching reports (at most a few hundred), empty at the end.
    func nextPage() throws(ServerError) -> [ExportedReport]
    /// Ends the transaction and gives the connection back.
    func close()
}
