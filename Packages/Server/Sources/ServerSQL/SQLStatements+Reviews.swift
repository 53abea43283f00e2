import Foundation
import ServerStore

/// Reviews (kept on each report's row) and report events.
extension SQLStatements {
    public func review(serverID: String) throws(ServerError) -> StoredReview? {
        try firstRow(
            "SELECT \(SQLRecords.reviewColumns) FROM reports WHERE server_id = ?\(lockClause)", [.text(serverID)]
        ).flatMap { SQLRecords.review($0) }
    }

    /// Keeps `reviews` on their reports' rows, at the positions `next`,
    /// `next + 1`, ... in order; the reviews as kept.
    public func storeReviews(_ reviews: [StoredReview], from next: Int64) throws(ServerError) -> [StoredReview] {
        var next = next
        var saved: [StoredReview] = []
        for var review in reviews {
            review.change = next
            next += 1
            try run(
                """
                UPDATE reports SET reviewed_revision = ?, review_state = ?, review_decided_by = ?,
                    review_decided_by_name = ?, review_decided_at = ?, review_comment = ?, review_field_comments = ?,
                    review_change = ?
                WHERE server_id = ?
                """,
                [
                    .count(review.revision), .text(review.state.rawValue), .optional(review.decidedBy?.id),
                    .optional(review.decidedBy?.displayName), .optional(review.decidedAt), .optional(review.comment),
                    .text(ReviewCoding.json(review.fieldComments)), .integer(review.change), .text(review.serverID),
                ])
            saved.append(review)
        }
        return saved
    }

    public func reviews(after: Int64, ownerID: String?, limit: Int) throws(ServerError) -> [StoredReview] {
        let owner = ownerID == nil ? "" : "AND owner_id = ?"
        return try rows(
            """
            SELECT \(SQLRecords.reviewColumns) FROM reports
            WHERE review_change > ? \(owner) ORDER BY review_change LIMIT ?
            """, [.integer(after)] + (ownerID.map { [SQLParameter.text($0)] } ?? []) + [.count(limit)]
        ).compactMap { SQLRecords.review($0) }
    }

    public func recordReportEvent(_ event: StoredReportEvent) throws(ServerError) {
        try run(
            """
            INSERT INTO report_events
                (server_id, at, actor_id, actor_name, kind, revision, comment, field_comments, change)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(event.serverID), .text(event.at), .text(event.actor.id), .text(event.actor.displayName),
                .text(event.kind), .count(event.revision), .optional(event.comment),
                .optional(event.fieldComments.map(ReviewCoding.json)), .integer(event.change),
            ])
    }

    public func reportEvents(serverID: String) throws(ServerError) -> [StoredReportEvent] {
        try rows(
            """
            SELECT server_id, at, actor_id, actor_name, kind, revision, comment, field_comments, change
            FROM report_events
            WHERE server_id = ? ORDER BY seq
            """, [.text(serverID)]
        ).map { SQLRecords.reportEvent($0) }
    }

    public func reportEvents(afterChange: Int64, limit: Int) throws(ServerError) -> [StoredReportEvent] {
        try rows(
            """
            SELECT server_id, at, actor_id, actor_name, kind, revision, comment, field_comments, change
            FROM report_events
            WHERE change > ? ORDER BY change LIMIT ?
            """, [.integer(afterChange), .count(limit)]
        ).map { SQLRecords.reportEvent($0) }
    }
}
