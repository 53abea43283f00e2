import Foundation
import Models

/// What the sync route holds of a revision it just accepted, so that its
/// event is written without reading the revision back.
struct AcceptedSnapshot: Sendable {
    /// The report as it stands after the revision (its current revision is the new one).
    var report: StoredReport
    var baseRevision: Int?
    /// The revision's payload and issues, canonical JSON as stored.
    var payloadJSON: String
    var issuesJSON: String
    /// The version of its template the revision was judged against.
    var templateVersion: Int?
}

/// The webhook outbox: each event is written in the transaction of the change
/// it tells of, with a pending delivery to every enabled hook sent its type,
/// so an accepted report is never without its event and an event never
/// without its report. Nothing is written (and no body made) for a type no
/// hook is sent.
enum WebhookOutbox {
    /// The events of accepted revisions: `report.accepted` for each, and
    /// `issue.flagged` for each issue whose `local_id` the report's previous
    /// revision did not hold. `reviews` are the reopened reviews of the same
    /// revisions, with their positions.
    static func recordAccepted(_ accepted: [AcceptedRevision], reviews: [StoredReview], in session: any StorageSession,
                               at: String) throws(ServerError) -> Bool {
        guard !accepted.isEmpty else { return false }
        let wanted = try session.subscribedWebhookEvents()
        guard wanted.contains(.reportAccepted) || wanted.contains(.issueFlagged) else { return false }
        let generation = try session.setting(ReviewCursor.generationKey) ?? "0"
        let positions = Dictionary(reviews.map { ($0.serverID, $0) }, uniquingKeysWith: { _, last in last })
        var events: [WebhookEvent] = []
        for item in accepted {
            var found = item.snapshot
            if found == nil { found = try read(item, in: session) }
            guard let snapshot = found else { continue }
            let review = positions[item.serverID] ?? StoredReview(serverID: item.serverID, localID: item.localID, ownerID: item.ownerID,
                                                                  revision: item.revision, state: .awaitingReview)
            if wanted.contains(.reportAccepted) {
                let photos = item.revision == 1 ? [] : try session.photos(serverID: item.serverID)
                let row = exported(snapshot, review: review, photos: photos)
                events.append(event(.reportAccepted, at: at, report: item.serverID) { out in
                    out.key("report")
                    ExportLine.writeReport(row, templateVersion: snapshot.templateVersion, generation: generation, exportKeys: false,
                                           into: &out)
                })
            }
            if wanted.contains(.issueFlagged) {
                for issue in try newIssues(item, snapshot, in: session) {
                    events.append(event(.issueFlagged, at: at, report: item.serverID) { out in
                        out.key("issue"); out.raw(issue[...].utf8)
                    })
                }
            }
        }
        try session.enqueueWebhookEvents(events, dueAt: milliseconds(Date()))
        return !events.isEmpty
    }

    /// The `report.reviewed` event of a decision just recorded: the report's current revision and the review.
    static func recordReviewed(_ review: StoredReview, generation: String, in session: any StorageSession, at: String) throws(ServerError) -> Bool {
        guard try session.subscribedWebhookEvents().contains(.reportReviewed),
              let report = try session.report(serverID: review.serverID),
              let revision = try session.revision(serverID: review.serverID, revision: report.currentRevision) else { return false }
        let snapshot = AcceptedSnapshot(report: report, baseRevision: revision.baseRevision, payloadJSON: revision.payloadJSON,
                                        issuesJSON: revision.issuesJSON, templateVersion: try session.template(id: report.templateID)?.version)
        let row = exported(snapshot, review: review, photos: try session.photos(serverID: report.serverID))
        let wire = CanonicalJSON.string(review.wire(generation: generation))
        let reviewed = event(.reportReviewed, at: at, report: review.serverID) { out in
            out.key("report")
            ExportLine.writeReport(row, templateVersion: snapshot.templateVersion, generation: generation, exportKeys: false, into: &out)
            out.key("review"); out.raw(wire[...].utf8)
        }
        try session.enqueueWebhookEvents([reviewed], dueAt: milliseconds(Date()))
        return true
    }

    /// Milliseconds since 1970, the outbox's clock.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// `{"at", "id", ...members..., "type"}`: `members` writes the keys that sort between `id` and `type`.
    private static func event(_ type: WebhookEventType, at: String, report: String, _ members: (inout JSONText) -> Void) -> WebhookEvent {
        let id = UUID().uuidString.lowercased()
        var out = JSONText(capacity: 2048)
        out.beginObject()
        out.key("at"); out.string(at)
        out.key("id"); out.string(id)
        members(&out)
        out.key("type"); out.string(type.rawValue)
        out.endObject()
        return WebhookEvent(id: id, type: type, at: at, reportServerID: report, body: String(decoding: out.bytes, as: UTF8.self))
    }

    /// A revision accepted outside the sync route (an edit on the server), read back.
    private static func read(_ item: AcceptedRevision, in session: any StorageSession) throws(ServerError) -> AcceptedSnapshot? {
        guard var report = try session.report(serverID: item.serverID),
              let revision = try session.revision(serverID: item.serverID, revision: item.revision) else { return nil }
        report.currentRevision = item.revision
        return AcceptedSnapshot(report: report, baseRevision: revision.baseRevision, payloadJSON: revision.payloadJSON,
                                issuesJSON: revision.issuesJSON, templateVersion: try session.template(id: report.templateID)?.version)
    }

    /// The issues of the revision (canonical JSON, each with `report_server_id`) whose local ids the previous revision did not hold.
    private static func newIssues(_ item: AcceptedRevision, _ snapshot: AcceptedSnapshot,
                                  in session: any StorageSession) throws(ServerError) -> [String] {
        guard let issues = CanonicalJSON.value(snapshot.issuesJSON).arrayValue, !issues.isEmpty else { return [] }
        var known = Set<String>()
        if item.revision > 1, let previous = try session.revision(serverID: item.serverID, revision: item.revision - 1) {
            for issue in CanonicalJSON.value(previous.issuesJSON).arrayValue ?? [] {
                if let id = issue["local_id"]?.stringValue { known.insert(id.lowercased()) }
            }
        }
        return issues.compactMap { issue -> String? in
            guard case .object(var members) = issue, let id = issue["local_id"]?.stringValue, !known.contains(id.lowercased()) else {
                return nil
            }
            members["report_server_id"] = .string(item.serverID)
            return JSONValue.object(members).canonicalString()
        }
    }

    /// The report of a snapshot in the export's shape.
    private static func exported(_ snapshot: AcceptedSnapshot, review: StoredReview, photos: [StoredPhoto]) -> ExportedReport {
        let report = snapshot.report
        let exportedReview = ExportedReview(revision: review.revision, state: review.state, decidedByID: review.decidedBy?.id,
                                            decidedByName: review.decidedBy?.displayName, decidedAt: review.decidedAt,
                                            comment: review.comment, fieldCommentsJSON: ReviewCoding.json(review.fieldComments),
                                            change: review.change)
        return ExportedReport(serverID: report.serverID, localID: report.localID.uuidString.lowercased(), templateID: report.templateID,
                              facilityID: report.facilityID, areaID: report.areaID, assignmentID: report.assignmentID,
                              parentLocalID: report.parentLocalID?.uuidString.lowercased(), parentServerID: report.parentServerID,
                              completedAtDevice: report.completedAtDevice, acceptedAt: report.acceptedAt, revision: report.currentRevision,
                              baseRevision: snapshot.baseRevision, score: report.score, followUpRequired: report.followUpRequired,
                              payloadJSON: snapshot.payloadJSON, issuesJSON: snapshot.issuesJSON, revisionAcceptedAt: "", inspector: "",
                              review: exportedReview, photos: photos)
    }
}
