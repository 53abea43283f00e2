import ServerSQL
import ServerStore

/// Review positions as SQLite hands them out.
extension SQLiteSession {
    func saveReviews(_ reviews: [StoredReview]) throws(ServerError) -> [StoredReview] {
        // Writers take turns on one connection's lock, so the next position is the highest so far plus one.
        let latest = try firstRow("SELECT COALESCE(MAX(review_change), 0) AS latest FROM reports")?.integer("latest")
        return try storeReviews(reviews, from: (latest ?? 0) + 1)
    }
}
