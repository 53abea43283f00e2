import Foundation
import Models

/// The order of a page of reports.
public enum HistoryOrder: String, Sendable, CaseIterable {
    /// Newest first (`GET /inspections`).
    case newest
    /// Oldest first: the longest waiting at the top of a review queue.
    case oldest
    /// Lowest score first, unscored last; newest first among equals.
    case lowestScore = "score"
    /// Most deficiencies first; newest first among equals.
    case mostDeficiencies = "deficiencies"
}

/// What one `GET /inspections` asks the store for (contract 1.1 filters):
/// every field left nil does not narrow. Times are RFC 3339 in the form the
/// store writes `accepted_at` (`2026-03-01T14:02:00Z`), so the store compares
/// them as text.
public struct HistoryQuery: Sendable, Equatable {
    /// The reports of this owner only: an inspector's own (nil for a supervisor).
    public var ownerID: String?
    /// `inspector_id`: the reports of this inspector only. With an `ownerID`
    /// that is someone else, nothing matches.
    public var inspectorID: String?
    /// `facility_id`.
    public var facilityID: String?
    /// `template_id`.
    public var templateID: String?
    /// `from`: accepted at or after this time.
    public var acceptedFrom: String?
    /// `to`: accepted at or before this time.
    public var acceptedTo: String?
    /// `review_state` (contract 1.1): the current revision's review is in this state.
    public var reviewState: ReviewState?
    /// Only reports that ask for a follow-up not yet done.
    public var openFollowUps = false
    /// Only reports that failed their template's pass threshold.
    public var failedOnly = false
    /// The order of the page.
    public var order = HistoryOrder.newest

    /// A query; nothing set is every report.
    public init(
        ownerID: String? = nil, inspectorID: String? = nil, facilityID: String? = nil, templateID: String? = nil,
        acceptedFrom: String? = nil, acceptedTo: String? = nil, reviewState: ReviewState? = nil
    ) {
        self.reviewState = reviewState
        self.ownerID = ownerID
        self.inspectorID = inspectorID
        self.facilityID = facilityID
        self.templateID = templateID
        self.acceptedFrom = acceptedFrom
        self.acceptedTo = acceptedTo
    }

    /// The conditions on the reports table (aliased `r`) as (column, operator, value), in a fixed
    /// order; each store writes its own placeholders, and never a value into the SQL.
    public var conditions: [(column: String, op: String, value: String)] {
        var list: [(column: String, op: String, value: String)] = []
        if let ownerID { list.append(("r.owner_id", "=", ownerID)) }
        if let inspectorID { list.append(("r.owner_id", "=", inspectorID)) }
        if let facilityID { list.append(("r.facility_id", "=", facilityID)) }
        if let templateID { list.append(("r.template_id", "=", templateID)) }
        if let acceptedFrom { list.append(("r.accepted_at", ">=", acceptedFrom)) }
        if let acceptedTo { list.append(("r.accepted_at", "<=", acceptedTo)) }
        if let reviewState { list.append(("r.review_state", "=", reviewState.rawValue)) }
        return list
    }
}
