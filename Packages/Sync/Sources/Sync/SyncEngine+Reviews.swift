import Foundation
import Models
import Storage

extension SyncEngine {
    /// Pulls one page of the reviews feed after the stored cursor (or from
    /// the start) and stores its reviews with the cursor after them in one
    /// transaction. A 404 is a server without reviews (contract 1.0): the
    /// store forgets any reviews cursor and the cycle says nothing of it.
    /// When the server says more is waiting, the next page is asked for
    /// while this one is stored (a read: nothing is stored out of order).
    func pullReviews(fromStart: Bool, run: inout SyncRun) async throws(StorageError) -> SyncCycle.Event {
        if fromStart { try store.dropReviewsCursor() }
        let cursor = fromStart ? nil : try store.meta(MetaKey.reviewsCursor)
        let ahead = run.reviewsAhead
        run.reviewsAhead = nil
        let fetched: Result<ReviewsResponse, APIError>
        if let ahead, ahead.cursor == cursor {
            fetched = await ahead.task.value
        } else {
            ahead?.task.cancel()
            fetched = await reviewsPage(since: cursor)
        }
        let page: ReviewsResponse
        switch fetched {
        case .success(let answer):
            page = answer
        case .failure(let error) where error.code == .notFound:
            try store.markReviewsUnsupported()
            return .reviewsUnsupported
        case .failure(let error) where error.isCursorInvalid:
            return .reviewsCursorInvalid
        case .failure(let error):
            return .reviewsFailed(SyncFailure(error))
        }
        run.reviewPages += 1
        // A page that names no cursor keeps the one it was asked after.
        let next = page.cursor.isEmpty ? (cursor ?? "") : page.cursor
        // A server that says `more` without moving its cursor would be asked the same page forever.
        let more = page.more && next != (cursor ?? "")
        if more && run.reviewPages < SyncCycle.reviewPagesPerCycle {
            let engine = self
            run.reviewsAhead = (next, Task { await engine.reviewsPage(since: next) })
        }
        let result = try store.recordReviews(page.reviews, cursor: next)
        return .reviewPageStored(result, more: more)
    }

    /// One page of `GET /reviews`.
    func reviewsPage(since cursor: String?) async -> Result<ReviewsResponse, APIError> {
        do throws(APIError) { return .success(try await client.reviews(since: cursor)) } catch {
            return .failure(error)
        }
    }
}
