import ServerSQL
import ServerStore

/// Review positions as PostgreSQL hands them out, from a counter.
extension PostgresSession {
    func saveReviews(_ reviews: [StoredReview]) throws(ServerError) -> [StoredReview] {
        guard !reviews.isEmpty else { return [] }
        // The counter's row stays locked until this transaction commits: positions
        // are handed out in commit order, so a reader never later sees a lower one.
        let last =
            try firstRow(
                "UPDATE counters SET value = value + $1 WHERE name = 'reviews' RETURNING value", [.count(reviews.count)]
            )?.integer("value") ?? Int64(reviews.count)
        return try storeReviews(reviews, from: last - Int64(reviews.count) + 1)
    }
}
