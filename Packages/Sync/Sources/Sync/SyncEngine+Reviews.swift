import Foundation
import Models
import Storage

extension SyncEngine {
    /// Pulls one page of the reviews feed after the stored cursor (or from
    /// the start) and stores its reviews with the cursor after them in one
    /// transaction. A 404 is a server without reviews (contract 1.0): the
    /// store forgets any reviews cursor and the cycle says nothing of it.
    func pullReviews(fromStart: Bool) async throws(StorageError) -> SyncCycle.Event {
        if fromStart { try store.dropReviewsCursor() }
        let cursor = fromStart ? nil : try store.meta(MetaKey.reviewsCursor)
        let page: ReviewsResponse
        do throws(APIError) {
            page = try await client.reviews(since: cursor)
        } catch where error.code == .notFound {
            try store.markReviewsUnsupported()
            return .reviewsUnsupported
        } catch where error.isCursorInvalid {
            return .reviewsCursorInvalid
        } catch {
            return .reviewsFailed(SyncFailure(error))
        }
        // A page that names no cursor keeps the one it was asked after.
        let next = page.cursor.isEmpty ? (cursor ?? "") : page.cursor
        let result = try store.recordReviews(page.reviews, cursor: next)
        // A server that says `more` without moving its cursor would be asked the same page forever.
        return .reviewPageStored(result, more: page.more && next != (cursor ?? ""))
    }
}
