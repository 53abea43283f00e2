import Foundation
import Models
import ServerStore

/// The webhook outbox is the report's own event record (`report_events`):
/// every accepted revision and every decision is recorded there in the
/// transaction of the change, with the position of its review change, which
/// becomes visible in commit order (as `GET /reviews` cursors rely on). So an
/// accepted report is never without its event, an event never without its
/// report, and ingesting pays nothing for webhooks.
///
/// Each hook keeps a cursor in that order. Its deliveries are made from the
/// record after the cursor, in order, at most `window` waiting at a time
/// (a receiver that is down holds back a cursor, not a growing table), the
/// cursor moved in the same transaction: none is skipped, none made twice.
/// Bodies are made then, from the revision the event names (revisions never
/// change), and kept: every attempt and replay posts the same bytes.
enum WebhookOutbox {
    /// Deliveries waiting per hook before no more are made for it: enough to
    /// keep every sender busy, few enough that a receiver that is down costs
    /// almost nothing (an idle sender makes more at once).
    static let window = 64

    /// Makes the deliveries of every enabled hook from the record after its
    /// cursor (on PostgreSQL, of hooks no other instance is serving now);
    /// how many it made.
    static func fanOut(in session: any StorageSession, now: Date) throws(ServerError) -> Int {
        let hooks = try session.webhooksForFanOut()
        guard !hooks.isEmpty else { return 0 }
        let generation = try session.setting(ReviewCursor.generationKey) ?? "0"
        var versions = TemplateVersionCache()
        var made = 0
        for row in hooks {
            let hook = row.hook
            var room = window - (try session.pendingWebhookDeliveries(webhookID: hook.id))
            guard room > 0 else { continue }
            let records = try session.reportEvents(afterChange: row.cursor, limit: room)
            if let last = records.last {
                var events: [WebhookEvent] = []
                for record in records {
                    events += try self.events(
                        of: record, wanted: Set(hook.events), generation: generation, versions: &versions,
                        in: session)
                }
                try session.enqueueWebhookEvents(events, to: [(hook.id, hook.events)], dueAt: milliseconds(now))
                try session.setWebhookCursor(id: hook.id, change: last.change)
                made += events.count
                room -= events.count
            }
            made += try fanOutActions(row, room: room, generation: generation, in: session, now: now)
        }
        return made
    }

    /// Makes a hook's deliveries of action events after its action cursor; how many it made.
    private static func fanOutActions(
        _ row: FanOutHook, room: Int, generation: String, in session: any StorageSession, now: Date
    ) throws(ServerError) -> Int {
        guard room > 0, row.hook.events.contains(where: \.isAction) else { return 0 }
        let records = try session.actionEvents(afterChange: row.actionCursor, limit: room)
        guard let last = records.last else { return 0 }
        let events = records.filter { row.hook.events.contains($0.type) }.map { record in
            actionEvent(record, generation: generation)
        }
        try session.enqueueWebhookEvents(events, to: [(row.hook.id, row.hook.events)], dueAt: milliseconds(now))
        try session.setWebhookActionCursor(id: row.hook.id, change: last.change)
        return events.count
    }

    /// The webhook event of an action's change: `{"action", "at", "id", "type"}`, its id
    /// made from the data's generation, the change's position and the type.
    static func actionEvent(_ record: StoredActionEvent, generation: String) -> WebhookEvent {
        let id = eventID("\(generation).action.\(record.change).\(record.type.rawValue)")
        var out = JSONText(capacity: 2048)
        out.beginObject()
        out.key("action"); out.raw(record.actionJSON[...].utf8)
        out.key("at"); out.string(record.at)
        out.key("id"); out.string(id)
        out.key("type"); out.string(record.type.rawValue)
        out.endObject()
        return WebhookEvent(
            id: id, type: record.type, at: record.at, reportServerID: record.actionID,
            body: String(decoding: out.bytes, as: UTF8.self))
    }

    /// Milliseconds since 1970, the outbox's clock.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// The events one entry of the record makes for a hook sent `wanted`.
    static func events(
        of record: StoredReportEvent, wanted: Set<WebhookEventType>, generation: String,
        versions: inout TemplateVersionCache, in session: any StorageSession
    ) throws(ServerError) -> [WebhookEvent] {
        guard let report = try session.report(serverID: record.serverID),
            let revision = try session.revision(serverID: record.serverID, revision: record.revision)
        else { return [] }
        var events: [WebhookEvent] = []
        if let decided = ReviewState(rawValue: record.kind), decided != .awaitingReview {
            guard wanted.contains(.reportReviewed) else { return [] }
            let review = StoredReview(
                serverID: report.serverID, localID: report.localID, ownerID: report.ownerID, revision: record.revision,
                state: decided, decidedBy: record.actor, decidedAt: record.at, comment: record.comment,
                fieldComments: record.fieldComments ?? [], change: record.change)
            let object = try reportObject(
                report, revision, review: review, generation: generation,
                version: versions.version(of: report.templateID, in: session), in: session)
            let wire = CanonicalJSON.string(review.wire(generation: generation))
            events.append(
                event(.reportReviewed, record, generation: generation) { out in
                    out.key("report"); out.raw(object[...].utf8)
                    out.key("review"); out.raw(wire[...].utf8)
                })
            return events
        }
        // accepted, amended, edited, merged: a revision was accepted.
        if wanted.contains(.reportAccepted) {
            let review = StoredReview(
                serverID: report.serverID, localID: report.localID, ownerID: report.ownerID, revision: record.revision,
                state: .awaitingReview, change: record.change)
            let object = try reportObject(
                report, revision, review: review, generation: generation,
                version: versions.version(of: report.templateID, in: session), in: session)
            events.append(
                event(.reportAccepted, record, generation: generation) { out in
                    out.key("report"); out.raw(object[...].utf8)
                })
        }
        if wanted.contains(.issueFlagged) {
            for issue in try newIssues(report, revision, in: session) {
                let id = issue["local_id"]?.stringValue?.lowercased() ?? ""
                guard case .object(var members) = issue else { continue }
                members["report_server_id"] = .string(report.serverID)
                let text = JSONValue.object(members).canonicalString()
                events.append(
                    event(.issueFlagged, record, generation: generation, issue: id) { out in
                        out.key("issue"); out.raw(text[...].utf8)
                    })
            }
        }
        return events
    }

    /// An event of `record`: its id made from the data's generation, the
    /// record's position, the type and the issue, so the same event has the
    /// same id for every hook; its body `{"at", "id", ...members..., "type"}`.
    private static func event(
        _ type: WebhookEventType, _ record: StoredReportEvent, generation: String, issue: String? = nil,
        _ members: (inout JSONText) -> Void
    ) -> WebhookEvent {
        let id = eventID("\(generation).\(record.change).\(type.rawValue).\(issue ?? "")")
        var out = JSONText(capacity: 2048)
        out.beginObject()
        out.key("at"); out.string(record.at)
        out.key("id"); out.string(id)
        members(&out)
        out.key("type"); out.string(type.rawValue)
        out.endObject()
        return WebhookEvent(
            id: id, type: type, at: record.at, reportServerID: record.serverID,
            body: String(decoding: out.bytes, as: UTF8.self))
    }

    /// A UUID (version 8, name-based) from the SHA-256 of `name`.
    static func eventID(_ name: String) -> String {
        var hex = Array(Digest.sha256Hex(Data(name.utf8)).prefix(32))
        hex[12] = "8"
        let variant = Int(String(hex[16]), radix: 16) ?? 0
        hex[16] = Array("89ab")[variant & 3]
        let text = String(hex)
        let parts = [
            text.prefix(8), text.dropFirst(8).prefix(4), text.dropFirst(12).prefix(4), text.dropFirst(16).prefix(4),
            text.dropFirst(20),
        ]
        return parts.joined(separator: "-")
    }

    /// The report as `GET /reports/{id}` shows `revision`, with `review` and the template's version.
    private static func reportObject(
        _ report: StoredReport, _ revision: StoredRevision, review: StoredReview, generation: String,
        version: Int?, in session: any StorageSession
    ) throws(ServerError) -> String {
        // The flag as that revision asked (a later re-inspection may have cleared it since).
        let flagged =
            revision.revision == report.currentRevision
            ? report.followUpRequired
            : CanonicalJSON.value(revision.payloadJSON)["follow_up_required"]?.boolValue ?? false
        var row = ExportedReport(
            serverID: report.serverID, localID: report.localID.uuidString.lowercased(), templateID: report.templateID,
            facilityID: report.facilityID, areaID: report.areaID, assignmentID: report.assignmentID,
            parentLocalID: report.parentLocalID?.uuidString.lowercased(), parentServerID: report.parentServerID,
            completedAtDevice: report.completedAtDevice, acceptedAt: report.acceptedAt, revision: revision.revision,
            baseRevision: revision.baseRevision, score: nil, followUpRequired: flagged,
            payloadJSON: revision.payloadJSON,
            issuesJSON: revision.issuesJSON, revisionAcceptedAt: "", inspector: "",
            review: ExportedReview(
                revision: review.revision, state: review.state, decidedByID: review.decidedBy?.id,
                decidedByName: review.decidedBy?.displayName, decidedAt: review.decidedAt, comment: review.comment,
                fieldCommentsJSON: ReviewCoding.json(review.fieldComments), change: review.change),
            photos: try session.photos(serverID: report.serverID))
        row.gradeJSON = revision.grade?.json
        var out = JSONText(capacity: 2048)
        ExportLine.writeReport(row, templateVersion: version, generation: generation, exportKeys: false, into: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// The revision's issues whose local ids the previous revision did not hold.
    static func newIssues(_ report: StoredReport, _ revision: StoredRevision, in session: any StorageSession)
        throws(ServerError) -> [JSONValue]
    {
        guard revision.issuesJSON != "[]", let issues = CanonicalJSON.value(revision.issuesJSON).arrayValue,
            !issues.isEmpty
        else { return [] }
        var known = Set<String>()
        if revision.revision > 1,
            let previous = try session.revision(serverID: report.serverID, revision: revision.revision - 1)
        {
            for issue in CanonicalJSON.value(previous.issuesJSON).arrayValue ?? [] {
                if let id = issue["local_id"]?.stringValue { known.insert(id.lowercased()) }
            }
        }
        return issues.filter { issue in issue["local_id"]?.stringValue.map { !known.contains($0.lowercased()) } ?? false
        }
    }
}

/// Each template's current version, read once per making of deliveries.
struct TemplateVersionCache {
    private var known: [String: Int?] = [:]

    mutating func version(of templateID: String, in session: any StorageSession) throws(ServerError) -> Int? {
        if let version = known[templateID] { return version }
        let version = try session.template(id: templateID)?.version
        known[templateID] = version
        return version
    }
}
