import FieldTypes
import Foundation
import Models
import ServerStore

/// `POST /reports/{server_id}/review` body, read leniently for one-line messages.
private struct DecisionBody: Decodable {
    var decision: String
    var revision: Int
    var comment: String?
    var fieldComments: [FieldComment]?

    enum CodingKeys: String, CodingKey {
        case decision, revision, comment
        case fieldComments = "field_comments"
    }
}

struct ReviewRoutes: RouteCapability {
    let context: ServerContext

    /// The longest review comment, in characters (and 4 bytes a character); and the most field comments one
    /// decision carries.
    static let longestComment = 4000
    static let mostFieldComments = 200

    /// `POST /reports/{server_id}/review` (supervisors and admins): approve,
    /// return or reject the current revision. The same decision again by the
    /// same person records nothing; a stale revision is 409 `REVISION_STALE`
    /// with the current review.
    func decideReview(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        guard caller.isSupervisor else {
            throw ServerError.forbidden("only supervisors and admins may decide on a report")
        }
        let serverID = try input.parameter("server_id")
        let body = try input.decode(DecisionBody.self)
        guard let decision = ReviewDecision(rawValue: body.decision) else {
            throw ServerError.badRequest(
                "'decision' must be approve, return or reject, not \(OneLine.quote(body.decision, limit: 40))")
        }
        let (review, generation, _) = try recordDecision(
            serverID: serverID, decision: decision, revision: body.revision,
            comment: body.comment, fieldComments: body.fieldComments ?? [], by: caller)
        return .ok(ReviewResponse(review: review.wire(generation: generation)))
    }

    /// Records a supervisor's decision on a report's current revision, the
    /// one way the API and the console share: never on one's own report
    /// (403), comments sanitised and bounded,
    /// a reason needed to return or reject, field comments only on fields of
    /// the template, a stale revision refused (409 `REVISION_STALE` with the
    /// current review), the same decision again recording nothing. Returns
    /// the review as it now stands, the server's generation, and whether the decision was recorded.
    func recordDecision(
        serverID: String, decision: ReviewDecision, revision: Int, comment rawComment: String?,
        fieldComments rawFieldComments: [FieldComment], by caller: Caller
    ) throws(ServerError) -> (StoredReview, String, Bool) {
        guard caller.isSupervisor else {
            throw ServerError.forbidden("only supervisors and admins may decide on a report")
        }
        let comment = rawComment.flatMap(Self.sanitised)
        let fieldComments = try Self.checkedFieldComments(rawFieldComments)
        if let comment, !TextLimit.fits(comment, Self.longestComment) {
            throw ServerError.badRequest("'comment' is longer than \(TextLimit.words(Self.longestComment))")
        }
        if decision != .approve && comment == nil && fieldComments.isEmpty {
            throw ServerError.badRequest(
                "say why you \(decision.rawValue) it: a comment, or a comment on a field")
        }
        let now = RFC3339.string(Date())
        let outcome = try store.write { session -> (StoredReview, String, Bool) in
            let generation = try session.setting(ReviewCursor.generationKey) ?? "0"
            guard let report = try session.report(serverID: serverID) else {
                throw ServerError.notFound("no report '\(serverID)'")
            }
            guard report.ownerID != caller.user.id else {
                throw ServerError.forbidden(
                    "you cannot approve, return or reject your own report; another supervisor or an admin decides")
            }
            let current =
                try session.review(serverID: serverID)
                ?? StoredReview.awaiting(report, revision: report.currentRevision)
            guard revision == report.currentRevision else {
                throw ServerError.revisionStale(
                    "revision \(revision) is not the current revision \(report.currentRevision) of report '\(serverID)'; look at it again",
                    review: CanonicalJSON.value(CanonicalJSON.string(current.wire(generation: generation))))
            }
            if !fieldComments.isEmpty {
                let known = Set((try session.template(id: report.templateID))?.schema.fields.map(\.id.rawValue) ?? [])
                if let unknown = fieldComments.first(where: { !known.contains($0.fieldID) }) {
                    throw ServerError.badRequest(
                        "template '\(report.templateID)' has no field \(OneLine.quote(unknown.fieldID, limit: 40))")
                }
            }
            let decided = StoredReview(
                serverID: report.serverID, localID: report.localID, ownerID: report.ownerID,
                revision: report.currentRevision, state: decision.state, decidedBy: caller.person,
                decidedAt: now, comment: comment, fieldComments: fieldComments)
            // The same decision, comments and person on the same revision: answered as it stands, nothing recorded.
            if current.state == decided.state && current.revision == decided.revision
                && current.decidedBy?.id == caller.user.id
                && current.comment == comment && current.fieldComments == fieldComments
            {
                return (current, generation, false)
            }
            let saved = try session.saveReviews([decided]).first ?? decided
            try session.recordReportEvent(
                StoredReportEvent(
                    serverID: report.serverID, at: now, actor: caller.person,
                    kind: decision.eventKind, revision: report.currentRevision,
                    comment: comment, fieldComments: fieldComments, change: saved.change))
            return (saved, generation, true)
        }
        // Webhook senders read the decision just recorded.
        if outcome.2 { outboxBells.ring() }
        return outcome
    }

    /// `GET /reviews?since=&limit=`: the current review of each report
    /// changed after the cursor, in order of change; an inspector's own only.
    func reviewFeed(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let query = input.request.query
        let limit = try FeedPaging.limit(query["limit"])
        let (page, generation, after) = try store.read { session -> ([StoredReview], String, Int64) in
            let generation = try session.setting(ReviewCursor.generationKey) ?? "0"
            let after = try FeedPaging.position(query["since"], generation: generation)
            let rows = try session.reviews(
                after: after, ownerID: caller.isSupervisor ? nil : caller.user.id, limit: limit + 1)
            return (rows, generation, after)
        }
        let shown = Array(page.prefix(limit))
        let cursor = ReviewCursor.encode(shown.last?.change ?? after, generation: generation)
        return .answer(
            ReviewsResponse(
                reviews: shown.map { $0.wire(generation: generation) }, cursor: cursor, more: page.count > limit))
    }

    /// `GET /reports/{server_id}/events`: oldest first; the report's inspector
    /// and supervisors only (anyone else: 404, as if there were no such report).
    func reportEvents(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let serverID = try input.parameter("server_id")
        let events = try store.read { session -> [StoredReportEvent] in
            guard let report = try session.report(serverID: serverID),
                caller.isSupervisor || report.ownerID == caller.user.id
            else {
                throw ServerError.notFound("no report '\(serverID)'")
            }
            return try session.reportEvents(serverID: serverID)
        }
        return .ok(
            ReportEventsResponse(
                events: events.map { event in
                    WireReportEvent(
                        at: event.at, actor: event.actor, kind: event.kind, revision: event.revision,
                        comment: event.comment,
                        fieldComments: event.fieldComments.flatMap { $0.isEmpty ? nil : $0 })
                }))
    }

    /// A comment trimmed, as it is kept; nil when nothing would be left of
    /// it once control characters other than line breaks and tabs are removed,
    /// as a reader's screen removes them (a comment of control characters
    /// alone is no comment). What is kept is what was sent: the terminal and
    /// the console sanitise it where they show it.
    static func sanitised(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = trimmed.unicodeScalars.filter {
            $0 != "\n" && $0 != "\t" && $0.properties.generalCategory != .control
                && !$0.properties.isWhitespace
        }
        return shown.isEmpty ? nil : trimmed
    }

    /// Field comments sanitised, each non-empty and bounded.
    private static func checkedFieldComments(_ comments: [FieldComment]) throws(ServerError) -> [FieldComment] {
        guard comments.count <= mostFieldComments else {
            throw ServerError.badRequest("a decision carries at most \(mostFieldComments) field comments")
        }
        return try comments.map { (item) throws(ServerError) -> FieldComment in
            guard let text = sanitised(item.comment) else {
                throw ServerError.badRequest("the comment on field \(OneLine.quote(item.fieldID, limit: 40)) is empty")
            }
            guard TextLimit.fits(text, longestComment) else {
                throw ServerError.badRequest(
                    "the comment on field \(OneLine.quote(item.fieldID, limit: 40)) is longer than \(TextLimit.words(longestComment))"
                )
            }
            return FieldComment(fieldID: item.fieldID, comment: text)
        }
    }
}
