import Foundation
import Models
import ServerStore
import SQLite

/// Reviews (kept on each report's row) and report events.
extension SQLiteSession {
    private static let reviewColumns = """
        server_id, local_id, owner_id, reviewed_revision, review_state, review_decided_by, review_decided_by_name,
        review_decided_at, review_comment, review_field_comments, review_change
        """

    private static func review(_ row: Row) -> StoredReview? {
        guard let serverID = row.text("server_id"), let local = row.uuid("local_id"), let owner = row.text("owner_id")
        else { return nil }
        let decider = row.text("review_decided_by").map {
            WirePerson(id: $0, displayName: row.text("review_decided_by_name") ?? "")
        }
        return StoredReview(
            serverID: serverID, localID: local, ownerID: owner, revision: Int(row.integer("reviewed_revision") ?? 1),
            state: row.text("review_state").flatMap(ReviewState.init(rawValue:)) ?? .awaitingReview,
            decidedBy: decider, decidedAt: row.text("review_decided_at"), comment: row.text("review_comment"),
            fieldComments: ReviewCoding.fieldComments(row.text("review_field_comments")),
            change: row.integer("review_change") ?? 0)
    }

    func review(serverID: String) throws(ServerError) -> StoredReview? {
        try db.query("SELECT \(Self.reviewColumns) FROM reports WHERE server_id = ?", [.text(serverID)]).first.flatMap(
            Self.review)
    }

    func saveReviews(_ reviews: [StoredReview]) throws(ServerError) -> [StoredReview] {
        // Writers take turns on one connection's lock, so the next position is the highest so far plus one.
        var next =
            (try db.query("SELECT COALESCE(MAX(review_change), 0) AS latest FROM reports").first?.integer("latest") ?? 0)
            + 1
        var saved: [StoredReview] = []
        for var review in reviews {
            review.change = next
            next += 1
            try db.update(
                """
                UPDATE reports SET reviewed_revision = ?, review_state = ?, review_decided_by = ?, review_decided_by_name = ?,
                    review_decided_at = ?, review_comment = ?, review_field_comments = ?, review_change = ?
                WHERE server_id = ?
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
        let owner = ownerID == nil ? "" : "AND owner_id = ?"
        return try db.query(
            """
            SELECT \(Self.reviewColumns) FROM reports WHERE review_change > ? \(owner) ORDER BY review_change LIMIT ?
            """, [.integer(after)] + (ownerID.map { [SQLValue.text($0)] } ?? []) + [.integer(Int64(limit))]
        ).compactMap(Self.review)
    }

    func recordReportEvent(_ event: StoredReportEvent) throws(ServerError) {
        try db.update(
            """
            INSERT INTO report_events (server_id, at, actor_id, actor_name, kind, revision, comment, field_comments, change)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
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
        try db.query(
            """
            SELECT server_id, at, actor_id, actor_name, kind, revision, comment, field_comments, change FROM report_events
            WHERE server_id = ? ORDER BY seq
            """, [.text(serverID)]
        ).map(Self.reportEvent)
    }

    func reportEvents(afterChange: Int64, limit: Int) throws(ServerError) -> [StoredReportEvent] {
        try db.query(
            """
            SELECT server_id, at, actor_id, actor_name, kind, revision, comment, field_comments, change FROM report_events
            WHERE change > ? ORDER BY change LIMIT ?
            """, [.integer(afterChange), .integer(Int64(limit))]
        ).map(Self.reportEvent)
    }

    private static func reportEvent(_ row: Row) -> StoredReportEvent {
        StoredReportEvent(
            serverID: row.text("server_id") ?? "", at: row.text("at") ?? "",
            actor: WirePerson(id: row.text("actor_id") ?? "", displayName: row.text("actor_name") ?? ""),
            kind: row.text("kind") ?? "", revision: Int(row.integer("revision") ?? 0), comment: row.text("comment"),
            fieldComments: row.text("field_comments").map { ReviewCoding.fieldComments($0) },
            change: row.integer("change") ?? 0)
    }
}
