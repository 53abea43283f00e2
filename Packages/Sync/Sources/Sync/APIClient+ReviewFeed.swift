import Foundation
import Models

/// The inspector's side of the review loop (contract 1.1): the feed of
/// reviews of the caller's reports, pulled every sync cycle.
extension APIClient {
    /// The most `GET /reviews` sends in one page (the contract's `limit` is 1 to 100).
    public static let reviewsPageLimit = 100

    /// `GET /reviews?since=&limit=`: the current review of each report whose
    /// review changed after `cursor` (every report without one), in the
    /// server's order of changes. A server without reviews answers
    /// `notFound`; a cursor it did not issue, `badRequest` with the server
    /// code `CURSOR_INVALID`.
    public func reviews(since cursor: String? = nil, limit: Int = APIClient.reviewsPageLimit) async throws(APIError)
        -> ReviewsResponse
    {
        var query: [(String, String)] = []
        if let cursor { query.append(("since", cursor)) }
        query.append(("limit", String(min(max(limit, 1), Self.reviewsPageLimit))))
        return try await perform(
            Call(.reviews, query: query), as: ReviewsResponse.self, reading: SyncResponseReader.readReviews
        ).0
    }
}

extension APIError {
    /// True for the contract's 400 `CURSOR_INVALID`: the client pulls again without `since`.
    public var isCursorInvalid: Bool { serverSaid(.cursorInvalid) }
}
