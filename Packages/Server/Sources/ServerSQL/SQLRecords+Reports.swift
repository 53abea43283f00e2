import Models
import ServerStore

/// Reports, their revisions, reviews and report events as rows hold them.
extension SQLRecords {
    /// The columns a report is read from (`report(_:prefix:)`).
    public static let reportColumns = """
        server_id, local_id, owner_id, template_id, facility_id, area_id, assignment_id, parent_local_id,
        parent_server_id, completed_at_device, current_revision, score, passed, deficiency_count, follow_up_required,
        follow_up_cleared_by,
        accepted_at, review_state
        """

    /// The report in `row`, its columns named as in `reportColumns` after `prefix`.
    public static func report(_ row: some SQLRow, prefix: String = "") -> StoredReport? {
        guard let serverID = row.text(prefix + "server_id"), let local = row.uuid(prefix + "local_id"),
            let owner = row.text(prefix + "owner_id"), let template = row.text(prefix + "template_id"),
            let facility = row.text(prefix + "facility_id")
        else { return nil }
        let flagged =
            (row.flag(prefix + "follow_up_required") ?? false) && row.text(prefix + "follow_up_cleared_by") == nil
        return StoredReport(
            serverID: serverID, localID: local, ownerID: owner, templateID: template, facilityID: facility,
            areaID: row.text(prefix + "area_id"), assignmentID: row.text(prefix + "assignment_id"),
            parentLocalID: row.uuid(prefix + "parent_local_id"), parentServerID: row.text(prefix + "parent_server_id"),
            completedAtDevice: row.text(prefix + "completed_at_device"),
            currentRevision: Int(row.integer(prefix + "current_revision") ?? 1), score: row.real(prefix + "score"),
            followUpRequired: flagged, acceptedAt: row.text(prefix + "accepted_at") ?? "",
            reviewState: row.text(prefix + "review_state").flatMap(ReviewState.init(rawValue:)) ?? .awaitingReview,
            passed: row.flag(prefix + "passed"), deficiencyCount: Int(row.integer(prefix + "deficiency_count") ?? 0))
    }

    /// The revision in `row`.
    public static func revision(_ row: some SQLRow) -> StoredRevision {
        var stored = StoredRevision(
            revision: Int(row.integer("revision") ?? 0), baseRevision: row.integer("base_revision").map { Int($0) },
            payloadJSON: row.text("payload") ?? "{}", issuesJSON: row.text("issues") ?? "[]",
            source: row.text("source") ?? "device")
        stored.mergedFields = row.text("merged_fields").map(MergeRecord.fields(json:))
        stored.grade = ReportGrade(json: row.text("grade"))
        return stored
    }

    /// The columns a review is read from (kept on the report's row).
    public static let reviewColumns = """
        server_id, local_id, owner_id, reviewed_revision, review_state, review_decided_by, review_decided_by_name,
        review_decided_at, review_comment, review_field_comments, review_change
        """

    /// The review in `row`, its columns named as in `reviewColumns`.
    public static func review(_ row: some SQLRow) -> StoredReview? {
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

    /// The report event in `row`.
    public static func reportEvent(_ row: some SQLRow) -> StoredReportEvent {
        StoredReportEvent(
            serverID: row.text("server_id") ?? "", at: row.text("at") ?? "",
            actor: WirePerson(id: row.text("actor_id") ?? "", displayName: row.text("actor_name") ?? ""),
            kind: row.text("kind") ?? "", revision: Int(row.integer("revision") ?? 0), comment: row.text("comment"),
            fieldComments: row.text("field_comments").map { ReviewCoding.fieldComments($0) },
            change: row.integer("change") ?? 0)
    }
}
