import Foundation
import Models
import Storage

/// The inspector's side of the review loop (contract 1.1): what a report's
/// review reads as, and the reports returned for changes.
extension Workspace {
    /// The review state a report reads as: the server's review when one
    /// arrived; `awaiting_review` for a SYNCED report without one when the
    /// server has reviews (it counts reports accepted before it had them as
    /// awaiting); nil otherwise (not accepted yet, or a server without reviews).
    public static func reviewState(of state: ReportState, stored: ReviewState?, serverHasReviews: Bool) -> ReviewState?
    {
        if let stored { return stored }
        return state == .synced && serverHasReviews ? .awaitingReview : nil
    }

    /// The review state `report` reads as (see `reviewState(of:stored:serverHasReviews:)`).
    public func reviewState(of report: Report) throws(AppError) -> ReviewState? {
        Self.reviewState(
            of: report.state, stored: report.lifecycle.review?.state, serverHasReviews: try serverHasReviews())
    }

    /// True once the server answered the reviews feed (and until it answered 404).
    public func serverHasReviews() throws(AppError) -> Bool {
        try storage { () throws(StorageError) in try store.reviewsSupported() }
    }

    /// Reports a supervisor returned for changes that are not sent again yet
    /// (SYNCED, or amended and still a DRAFT), newest first.
    public func returnedReports() throws(AppError) -> [Report] {
        try storage { () throws(StorageError) in try store.returnedReports() }
    }
}

extension ReviewState {
    /// How a person reads the state: "awaiting review", "approved", "returned for changes", "rejected".
    public var phrase: String {
        switch self {
        case .awaitingReview: "awaiting review"
        case .approved: "approved"
        case .returned: "returned for changes"
        case .rejected: "rejected"
        }
    }
}
