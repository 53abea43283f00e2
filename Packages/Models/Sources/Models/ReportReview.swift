import Foundation

/// The server's review of one revision of a report, as the device keeps it
/// (contract 1.1, "Review"): a supervisor's decision with who made it, when,
/// and the comments on the report and on single fields. Text in it came from
/// a person on the server: show it through `OneLine` (a terminal) or escaped (HTML).
public struct ReportReview: Sendable, Hashable {
    /// Where the review stands.
    public var state: ReviewState
    /// The server revision reviewed.
    public var revision: Int
    /// Who decided; nil while awaiting review.
    public var decidedBy: WirePerson?
    /// When the server recorded the decision (RFC 3339, the server's clock).
    public var decidedAt: String?
    /// The comment on the whole report, if any.
    public var comment: String?
    /// Comments on single fields, in the server's order.
    public var fieldComments: [FieldComment]

    /// A review.
    public init(
        state: ReviewState, revision: Int, decidedBy: WirePerson? = nil, decidedAt: String? = nil,
        comment: String? = nil, fieldComments: [FieldComment] = []
    ) {
        self.state = state
        self.revision = revision
        self.decidedBy = decidedBy
        self.decidedAt = decidedAt
        self.comment = comment
        self.fieldComments = fieldComments
    }

    /// The review as `GET /reviews` sends it (its ids and position left out).
    public init(_ wire: WireReview) {
        self.init(
            state: wire.state, revision: wire.revision, decidedBy: wire.decidedBy, decidedAt: wire.decidedAt,
            comment: wire.comment, fieldComments: wire.fieldComments)
    }

    /// A newly accepted revision: awaiting review, with no comments (the contract's start of every revision).
    public static func awaiting(revision: Int) -> ReportReview {
        ReportReview(state: .awaitingReview, revision: revision)
    }

    /// The comments on one field, in the server's order.
    public func comments(on field: FieldID) -> [String] {
        fieldComments.filter { FieldID($0.fieldID) == field }.map(\.comment)
    }

    /// True when the report waits for its inspector to change it.
    public var isReturned: Bool { state == .returned }

    /// True while the review holds the report on the device past retention:
    /// returned (until the amendment is synced) or still awaiting a decision.
    public var holdsReport: Bool { state == .returned || state == .awaitingReview }
}
