import Foundation
import Models
import PostgreSQL
import ServerStore

/// Reviews (kept on each report's row) and report events.
extension PostgresSession {
    private static let reviewColumns = """
        server_id, local_id, owner_id, reviewed_revision, review_state, review_decided_by, review_decided_by_name,
        review_decided_at, review_comment, review_field_comments, review_change
        """

    private static func review(_ row: PostgresRow) -> StoredReview? {
        guard let serverID = row.string("server_id"), let local = row.uuid("local_id"),
            let owner = row.string("owner_id")
        else { return nil }
        let decider = row.string("review_decided_by").map {
            WirePerson(id: $0, displayName: row.string("review_decided_by_name") ?? "")
        }
        return StoredReview(
            serverID: serverID, localID: local, ownerID: owner, revision: Int(row.int("reviewed_revision") ?? 1),
            state: row.string("review_state").flatMap(ReviewState.init(rawValue:)) ?? .awaitingReview,
            decidedBy: decider, decidedAt: row.string("review_decided_at"), comment: row.string("review_comment"),
            fieldComments: ReviewCoding.fieldComments(row.string("review_field_comments")),
            change: row.int("review_change") ?? 0)
    }

    func review(serverID: String) throws(ServerError) -> StoredReview? {
        try query("SELECT \(Self.reviewColumns) FROM reports WHERE server_id = $1\(lockClause)", [.text(serverID)])
            .first
            .flatMap(Self.review)
    }

    func saveReviews(_ reviews: [StoredReview]) throws(ServerError) -> [StoredReview] {
        guard !reviews.isEmpty else { return [] }
        // The counter's row stays locked until this transaction commits: positions
        // are handed out in commit order, so a reader never later sees a lower one.
        let last =
            try query(
                "UPDATE counters SET value = value + $1 WHERE name = 'reviews' RETURNING value",
                [.integer(Int64(reviews.count))]
            ).first?.int("value") ?? Int64(reviews.count)
        var next = last - Int64(reviews.count) + 1
        var saved: [StoredReview] = []
        for var review in reviews {
            review.change = next
            next += 1
            try query(
                """
                UPDATE reports SET reviewed_revision = $1, review_state = $2, review_decided_by = $3, review_decided_by_name = $4,
                    review_decided_at = $5, review_comment = $6, review_field_comments = $7, review_change = $8
                WHERE server_id = $9
                """,
                [
                    .integer(Int64(review.revision)), .text(review.state.rawValue), .optional(review.decidedBy?.id),
                    .optional(review.decidedBy?.displayName), .optional(review.decidedAt), .optional(review.comment),
                    .text(ReviewCoding.json(review.fieldComments)), .integer(review.change), .text(review.serverID),
                ])
            saved.append(review)
        }
        return saved
    }

    func reviews(after: Int64, ownerID: String?, limit: Int) throws(ServerError) -> [StoredReview] {
        if let ownerID {
            return try query(
                """
                SELECT \(Self.reviewColumns) FROM reports WHERE owner_id = $1 AND review_change > $2 ORDER BY review_change LIMIT $3
                """, [.text(ownerID), .integer(after), .integer(Int64(limit))]
            ).compactMap(Self.review)
        }
        return try query(
            """
            SELECT \(Self.reviewColumns) FROM reports WHERE review_change > $1 ORDER BY review_change LIMIT $2
            """, [.integer(after), .integer(Int64(limit))]
        ).compactMap(Self.review)
    }

    func recordReportEvent(_ event: StoredReportEvent) throws(ServerError) {
        try query(
            """
            INSERT INTO report_events (server_id, at, actor_id, actor_name, kind, revision, comment, field_comments, change)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
            """,
            [
                .text(event.serverID), .text(event.at), .text(event.actor.id), .text(event.actor.displayName),
                .text(event.kind),
                .integer(Int64(event.revision)), .optional(event.comment),
                .optional(event.fieldComments.map(ReviewCoding.json)),
                .integer(event.change),
            ])
    }

    func reportEvents(serverID: String) throws(ServerError) -> [StoredReportEvent] {
        try query(
            """
            SELECT server_id, at, actor_id, actor_name, kind, revision, comment, field_comments, change FROM report_events
            WHERE server_id = $1 ORDER BY seq
            """, [.text(serverID)]
        ).map(Self.reportEvent)
    }

    func reportEvents(afterChange: Int64, limit: Int) throws(ServerError) -> [StoredReportEvent] {
        try query(
            """
            SELECT server_id, at, actor_id, actor_name, kind, revision, comment, field_comments, change FROM report_events
            WHERE change > $1 ORDER BY change LIMIT $2
            """, [.integer(afterChange), .integer(Int64(limit))]
        ).map(Self.reportEvent)
    }

    private static func reportEvent(_ row: PostgresRow) -> StoredReportEvent {
        StoredReportEvent(
            serverID: row.string("server_id") ?? "", at: row.string("at") ?? "",
            actor: WirePerson(id: row.string("actor_id") ?? "", displayName: row.string("actor_name") ?? ""),
            kind: row.string("kind") ?? "", revision: Int(row.int("revision") ?? 0), comment: row.string("comment"),
            fieldComments: row.string("field_comments").map { ReviewCoding.fieldComments($0) },
            change: row.int("change") ?? 0)
    }
}
