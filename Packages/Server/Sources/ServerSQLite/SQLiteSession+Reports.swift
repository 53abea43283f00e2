import Foundation
import Models
import ServerStore
import SQLite

/// Reports and their revisions.
extension SQLiteSession {
    static let reportColumns = """
        server_id, local_id, owner_id, template_id, facility_id, area_id, assignment_id, parent_local_id,
        parent_server_id, completed_at_device, current_revision, score, follow_up_required, follow_up_cleared_by, accepted_at,
        review_state
        """

    /// The report in `row`, its columns named as in `reportColumns`.
    static func report(_ row: Row) -> StoredReport? {
        guard let serverID = row.text("server_id"), let local = row.uuid("local_id"), let owner = row.text("owner_id"),
            let template = row.text("template_id"), let facility = row.text("facility_id")
        else { return nil }
        let flagged = (row.integer("follow_up_required") ?? 0) != 0 && row.text("follow_up_cleared_by") == nil
        return StoredReport(
            serverID: serverID, localID: local, ownerID: owner, templateID: template, facilityID: facility,
            areaID: row.text("area_id"), assignmentID: row.text("assignment_id"),
            parentLocalID: row.uuid("parent_local_id"), parentServerID: row.text("parent_server_id"),
            completedAtDevice: row.text("completed_at_device"),
            currentRevision: Int(row.integer("current_revision") ?? 1), score: row.real("score"),
            followUpRequired: flagged, acceptedAt: row.text("accepted_at") ?? "",
            reviewState: row.text("review_state").flatMap(ReviewState.init(rawValue:)) ?? .awaitingReview)
    }

    func report(localID: UUID) throws(ServerError) -> StoredReport? {
        try db.query("SELECT \(Self.reportColumns) FROM reports WHERE local_id = ?", [.id(localID)]).first.flatMap(
            Self.report)
    }

    func report(serverID: String) throws(ServerError) -> StoredReport? {
        try db.query("SELECT \(Self.reportColumns) FROM reports WHERE server_id = ?", [.text(serverID)]).first.flatMap(
            Self.report)
    }

    func revision(serverID: String, revision: Int) throws(ServerError) -> StoredRevision? {
        try db.query(
            """
            SELECT revision, base_revision, payload, issues, source, merged_fields FROM report_revisions
            WHERE server_id = ? AND revision = ?
            """, [.text(serverID), .integer(Int64(revision))]
        ).first.map { row in
            var stored = StoredRevision(
                revision: Int(row.integer("revision") ?? 0), baseRevision: row.integer("base_revision").map { Int($0) },
                payloadJSON: row.text("payload") ?? "{}", issuesJSON: row.text("issues") ?? "[]",
                source: row.text("source") ?? "device")
            stored.mergedFields = row.text("merged_fields").map(MergeRecord.fields(json:))
            return stored
        }
    }

    func deviceRevision(serverID: String, baseRevision: Int?, payloadJSON: String) throws(ServerError) -> Int? {
        try db.query(
            """
            SELECT revision FROM report_revisions
            WHERE server_id = ? AND source = 'device' AND base_revision IS ? AND COALESCE(sent_payload, payload) = ?
            ORDER BY revision LIMIT 1
            """, [.text(serverID), .optional(baseRevision), .text(payloadJSON)]
        )
        .first?.integer("revision").map { Int($0) }
    }

    func recordMerge(serverID: String, revision: Int, sentPayloadJSON: String, mergedFields: [String])
        throws(ServerError)
    {
        try db.update(
            "UPDATE report_revisions SET sent_payload = ?, merged_fields = ? WHERE server_id = ? AND revision = ?",
            [.text(sentPayloadJSON), .text(MergeRecord.json(mergedFields)), .text(serverID), .integer(Int64(revision))])
    }

    func insertReport(
        _ report: WireReport, ownerID: String, payloadJSON: String, issuesJSON: String, score: Double?,
        now: Date
    ) throws(ServerError) -> String {
        let seq =
            (try db.query("SELECT COALESCE(MAX(seq), 0) AS latest FROM reports").first?.integer("latest") ?? 0) + 1
        let serverID = ServerID.make()
        let stamp = RFC3339.string(now)
        try db.update(
            """
            INSERT INTO reports (server_id, seq, local_id, owner_id, template_id, facility_id, area_id, assignment_id,
                parent_local_id, parent_server_id, completed_at_device, current_revision, score, follow_up_required, accepted_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
            """,
            [
                .text(serverID), .integer(seq), .id(report.localID), .text(ownerID), .text(report.templateID),
                .text(report.facilityID), .optional(report.areaID), .optional(report.assignmentID),
                .id(report.parentLocalID),
                .optional(report.parentServerID), .optional(report.completedAtDevice),
                score.map(SQLValue.real) ?? .null,
                .integer(report.payload.followUpRequired ? 1 : 0), .text(stamp),
            ])
        try db.update(
            """
            INSERT INTO report_revisions (server_id, revision, base_revision, payload, issues, source, author_id, created_at)
            VALUES (?, 1, ?, ?, ?, 'device', ?, ?)
            """,
            [
                .text(serverID), .optional(report.baseRevision), .text(payloadJSON), .text(issuesJSON), .text(ownerID),
                .text(stamp),
            ])
        return serverID
    }

    func appendRevision(
        serverID: String, baseRevision: Int?, payload: WirePayload, issuesJSON: String?, score: Double?,
        source: String, authorID: String?, limit: Int, now: Date
    ) throws(ServerError) -> Int {
        guard let current = try report(serverID: serverID) else {
            throw ServerError.notFound("no report '\(serverID)'")
        }
        guard current.currentRevision < limit else { throw ServerError.revisionLimit(serverID, limit: limit) }
        let issues: String
        if let issuesJSON {
            issues = issuesJSON
        } else {
            issues = try revision(serverID: serverID, revision: current.currentRevision)?.issuesJSON ?? "[]"
        }
        let next = current.currentRevision + 1
        try db.update(
            """
            INSERT INTO report_revisions (server_id, revision, base_revision, payload, issues, source, author_id, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(serverID), .integer(Int64(next)), .optional(baseRevision), .text(CanonicalJSON.string(payload)),
                .text(issues), .text(source), .optional(authorID), .text(RFC3339.string(now)),
            ])
        try db.update(
            """
            UPDATE reports SET current_revision = ?, score = ?, follow_up_required = ?,
                follow_up_cleared_by = CASE WHEN ? THEN NULL ELSE follow_up_cleared_by END
            WHERE server_id = ?
            """,
            [
                .integer(Int64(next)), score.map(SQLValue.real) ?? .null, .integer(payload.followUpRequired ? 1 : 0),
                .integer(payload.followUpRequired ? 1 : 0), .text(serverID),
            ])
        return next
    }

    func clearFollowUp(parentServerID: String, childServerID: String) throws(ServerError) {
        try db.update(
            "UPDATE reports SET follow_up_cleared_by = ? WHERE server_id = ? AND follow_up_cleared_by IS NULL",
            [.text(childServerID), .text(parentServerID)])
    }
}
