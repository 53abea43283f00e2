import Foundation
import Models

/// What the sync route holds of a revision it just accepted, so that its
/// events are written without reading the revision back.
struct AcceptedSnapshot: Sendable {
    /// The revision's issues, canonical JSON as stored.
    var issuesJSON: String
    /// The version of its template the revision was judged against.
    var templateVersion: Int?
}

/// The webhook outbox: each event is written in the transaction of the
/// change it tells of, as a pending delivery to every enabled hook sent its
/// type, so an accepted report is never without its event and an event
/// never without its report. Nothing is written for a type no hook is sent.
///
/// A delivery row names what the event is about (report, revision, review
/// position, issue); the body is made from the immutable revision when the
/// event is first sent, and kept: the ingesting transaction writes one small
/// row per event and hook and makes no JSON. A decision's body is made at
/// once, since a report's review can change again.
enum WebhookOutbox {
    /// The events of accepted revisions: `report.accepted` for each, and
    /// `issue.flagged` for each issue whose `local_id` the report's previous
    /// revision did not hold. `reviews` are the reopened reviews of the same
    /// revisions, with their positions.
    static func recordAccepted(_ accepted: [AcceptedRevision], reviews: [StoredReview], in session: any StorageSession,
                               at: String) throws(ServerError) -> Bool {
        guard !accepted.isEmpty else { return false }
        let hooks = try session.enabledWebhooks()
        let wanted = Set(hooks.flatMap(\.events))
        guard wanted.contains(.reportAccepted) || wanted.contains(.issueFlagged) else { return false }
        let positions = Dictionary(reviews.map { ($0.serverID, $0.change) }, uniquingKeysWith: { _, last in last })
        var events: [WebhookEvent] = []
        for item in accepted {
            let change = positions[item.serverID] ?? 0
            let version = item.snapshot?.templateVersion
            if wanted.contains(.reportAccepted) {
                events.append(WebhookEvent(id: newID(), type: .reportAccepted, at: at, reportServerID: item.serverID,
                                           revision: item.revision, change: change, templateVersion: version))
            }
            if wanted.contains(.issueFlagged) {
                for issue in try newIssues(item, in: session) {
                    events.append(WebhookEvent(id: newID(), type: .issueFlagged, at: at, reportServerID: item.serverID,
                                               revision: item.revision, change: change, templateVersion: version, issueLocalID: issue))
                }
            }
        }
        try session.enqueueWebhookEvents(events, to: hooks, dueAt: milliseconds(Date()))
        return !events.isEmpty
    }

    /// The `report.reviewed` event of a decision just recorded, its body made
    /// now: the report's current revision and the review as decided.
    static func recordReviewed(_ review: StoredReview, generation: String, in session: any StorageSession, at: String) throws(ServerError) -> Bool {
        let hooks = try session.enabledWebhooks()
        guard hooks.contains(where: { $0.events.contains(.reportReviewed) }) else { return false }
        var event = WebhookEvent(id: newID(), type: .reportReviewed, at: at, reportServerID: review.serverID, revision: review.revision,
                                 change: review.change, templateVersion: nil)
        guard let report = try reportObject(event, review: review, generation: generation, in: session) else { return false }
        let wire = CanonicalJSON.string(review.wire(generation: generation))
        event.body = body(event) { out in
            out.key("report"); out.raw(report[...].utf8)
            out.key("review"); out.raw(wire[...].utf8)
        }
        try session.enqueueWebhookEvents([event], to: hooks, dueAt: milliseconds(Date()))
        return true
    }

    /// The body of an event whose body was not made yet, from the revision it
    /// names; nil when the report or revision is not there.
    static func render(_ event: WebhookEvent, in session: any StorageSession) throws(ServerError) -> String? {
        if let body = event.body { return body }
        switch event.type {
        case .reportAccepted, .reportReviewed:
            guard let report = try session.report(serverID: event.reportServerID) else { return nil }
            let generation = try session.setting(ReviewCursor.generationKey) ?? "0"
            let review = StoredReview(serverID: report.serverID, localID: report.localID, ownerID: report.ownerID, revision: event.revision,
                                      state: .awaitingReview, change: event.change)
            guard let object = try reportObject(event, review: review, generation: generation, in: session) else { return nil }
            return body(event) { out in out.key("report"); out.raw(object[...].utf8) }
        case .issueFlagged:
            guard let revision = try session.revision(serverID: event.reportServerID, revision: event.revision),
                  let issue = CanonicalJSON.value(revision.issuesJSON).arrayValue?.first(where: {
                      $0["local_id"]?.stringValue?.lowercased() == event.issueLocalID?.lowercased()
                  }), case .object(var members) = issue else { return nil }
            members["report_server_id"] = .string(event.reportServerID)
            let text = JSONValue.object(members).canonicalString()
            return body(event) { out in out.key("issue"); out.raw(text[...].utf8) }
        }
    }

    /// Milliseconds since 1970, the outbox's clock.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    private static func newID() -> String { UUID().uuidString.lowercased() }

    /// `{"at", "id", ...members..., "type"}`: `members` writes the keys that sort between `id` and `type`.
    private static func body(_ event: WebhookEvent, _ members: (inout JSONText) -> Void) -> String {
        var out = JSONText(capacity: 2048)
        out.beginObject()
        out.key("at"); out.string(event.at)
        out.key("id"); out.string(event.id)
        members(&out)
        out.key("type"); out.string(event.type.rawValue)
        out.endObject()
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// The report as `GET /reports/{id}` shows revision `event.revision`, with `review` and `template_version`.
    private static func reportObject(_ event: WebhookEvent, review: StoredReview, generation: String,
                                     in session: any StorageSession) throws(ServerError) -> String? {
        guard let report = try session.report(serverID: event.reportServerID),
              let revision = try session.revision(serverID: event.reportServerID, revision: event.revision) else { return nil }
        var version = event.templateVersion
        if version == nil { version = try session.template(id: report.templateID)?.version }
        // The flag as that revision asked (a later re-inspection may have cleared it since).
        let flagged = event.revision == report.currentRevision ? report.followUpRequired
            : CanonicalJSON.value(revision.payloadJSON)["follow_up_required"]?.boolValue ?? false
        let row = ExportedReport(
            serverID: report.serverID, localID: report.localID.uuidString.lowercased(), templateID: report.templateID,
            facilityID: report.facilityID, areaID: report.areaID, assignmentID: report.assignmentID,
            parentLocalID: report.parentLocalID?.uuidString.lowercased(), parentServerID: report.parentServerID,
            completedAtDevice: report.completedAtDevice, acceptedAt: report.acceptedAt, revision: event.revision,
            baseRevision: revision.baseRevision, score: nil, followUpRequired: flagged, payloadJSON: revision.payloadJSON,
            issuesJSON: revision.issuesJSON, revisionAcceptedAt: "", inspector: "",
            review: ExportedReview(revision: review.revision, state: review.state, decidedByID: review.decidedBy?.id,
                                   decidedByName: review.decidedBy?.displayName, decidedAt: review.decidedAt, comment: review.comment,
                                   fieldCommentsJSON: ReviewCoding.json(review.fieldComments), change: review.change),
            photos: try session.photos(serverID: report.serverID))
        var out = JSONText(capacity: 2048)
        ExportLine.writeReport(row, templateVersion: version, generation: generation, exportKeys: false, into: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// The local ids of the revision's issues that the previous revision did not hold.
    private static func newIssues(_ item: AcceptedRevision, in session: any StorageSession) throws(ServerError) -> [String] {
        var issuesJSON = item.snapshot?.issuesJSON
        if issuesJSON == nil { issuesJSON = try session.revision(serverID: item.serverID, revision: item.revision)?.issuesJSON }
        // Most revisions carry no issue: nothing to parse.
        guard let issuesJSON, issuesJSON != "[]", let issues = CanonicalJSON.value(issuesJSON).arrayValue, !issues.isEmpty else { return [] }
        var known = Set<String>()
        if item.revision > 1, let previous = try session.revision(serverID: item.serverID, revision: item.revision - 1) {
            for issue in CanonicalJSON.value(previous.issuesJSON).arrayValue ?? [] {
                if let id = issue["local_id"]?.stringValue { known.insert(id.lowercased()) }
            }
        }
        return issues.compactMap { $0["local_id"]?.stringValue?.lowercased() }.filter { !known.contains($0) }
    }
}
