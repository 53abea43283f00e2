import Foundation
import Models
import PostgreSQL
import ServerStore

/// Reports and their revisions. Inside a write every report read is locked
/// until commit, so the revision a rule judged against is still the current
/// one when the next is written, on whichever instance.
extension PostgresSession {
    static let reportColumns = """
        server_id, local_id, owner_id, template_id, facility_id, area_id, assignment_id, parent_local_id,
        parent_server_id, completed_at_device, current_revision, score, follow_up_required, follow_up_cleared_by, accepted_at,
        review_state
        """

    static func report(_ row: PostgresRow, prefix: String = "") -> StoredReport? {
        guard let serverID = row.string(prefix + "server_id"), let local = row.uuid(prefix + "local_id"),
            let owner = row.string(prefix + "owner_id"), let template = row.string(prefix + "template_id"),
            let facility = row.string(prefix + "facility_id")
        else { return nil }
        let flagged = (row.bool(prefix + "follow_up_required") ?? false) && row.isNull(prefix + "follow_up_cleared_by")
        return StoredReport(
            serverID: serverID, localID: local, ownerID: owner, templateID: template, facilityID: facility,
            areaID: row.string(prefix + "area_id"), assignmentID: row.string(prefix + "assignment_id"),
            parentLocalID: row.uuid(prefix + "parent_local_id"),
            parentServerID: row.string(prefix + "parent_server_id"),
            completedAtDevice: row.string(prefix + "completed_at_device"),
            currentRevision: Int(row.int(prefix + "current_revision") ?? 1), score: row.double(prefix + "score"),
            followUpRequired: flagged, acceptedAt: row.string(prefix + "accepted_at") ?? "",
            reviewState: row.string(prefix + "review_state").flatMap(ReviewState.init(rawValue:)) ?? .awaitingReview)
    }

    func report(localID: UUID) throws(ServerError) -> StoredReport? {
        try query("SELECT \(Self.reportColumns) FROM reports WHERE local_id = $1\(lockClause)", [.id(localID)]).first
            .flatMap { Self.report($0) }
    }

    func report(serverID: String) throws(ServerError) -> StoredReport? {
        try query("SELECT \(Self.reportColumns) FROM reports WHERE server_id = $1\(lockClause)", [.text(serverID)])
            .first
            .flatMap { Self.report($0) }
    }

    func revision(serverID: String, revision: Int) throws(ServerError) -> StoredRevision? {
        try query(
            """
            SELECT revision, base_revision, payload, issues, source, merged_fields FROM report_revisions
            WHERE server_id = $1 AND revision = $2
            """, [.text(serverID), .integer(Int64(revision))]
        ).first.map { row in
            var stored = StoredRevision(
                revision: Int(row.int("revision") ?? 0), baseRevision: row.int("base_revision").map { Int($0) },
                payloadJSON: row.string("payload") ?? "{}", issuesJSON: row.string("issues") ?? "[]",
                source: row.string("source") ?? "device")
            stored.mergedFields = row.string("merged_fields").map(MergeRecord.fields(json:))
            return stored
        }
    }

    func deviceRevision(serverID: String, baseRevision: Int?, payloadJSON: String) throws(ServerError) -> Int? {
        try query(
            """
            SELECT revision FROM report_revisions
            WHERE server_id = $1 AND source = 'device' AND base_revision IS NOT DISTINCT FROM $2::integer
                AND COALESCE(sent_payload, payload) = $3
            ORDER BY revision LIMIT 1
            """, [.text(serverID), .optional(baseRevision), .text(payloadJSON)]
        )
        .first?.int("revision").map { Int($0) }
    }

    func recordMerge(serverID: String, revision: Int, sentPayloadJSON: String, mergedFields: [String])
        throws(ServerError)
    {
        try query(
            "UPDATE report_revisions SET sent_payload = $1, merged_fields = $2 WHERE server_id = $3 AND revision = $4",
            [.text(sentPayloadJSON), .text(MergeRecord.json(mergedFields)), .text(serverID), .integer(Int64(revision))])
    }

    func insertReport(
        _ report: WireReport, ownerID: String, payloadJSON: String, issuesJSON: String, score: Double?,
        now: Date
    ) throws(ServerError) -> String {
        let serverID = ServerID.make()
        let stamp = RFC3339.string(now)
        try query(
            """
            INSERT INTO reports (server_id, local_id, owner_id, template_id, facility_id, area_id, assignment_id,
                parent_local_id, parent_server_id, completed_at_device, current_revision, score, follow_up_required, accepted_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, $11, $12, $13)
            """,
            [
                .text(serverID), .id(report.localID), .text(ownerID), .text(report.templateID),
                .text(report.facilityID), .optional(report.areaID), .optional(report.assignmentID),
                .id(report.parentLocalID),
                .optional(report.parentServerID), .optional(report.completedAtDevice), .optional(score),
                .bool(report.payload.followUpRequired), .text(stamp),
            ])
        try query(
            """
            INSERT INTO report_revisions (server_id, revision, base_revision, payload, issues, source, author_id, created_at)
            VALUES ($1, 1, $2, $3, $4, 'device', $5, $6)
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
        // Locked (FOR UPDATE) here whatever the session: the cap and the next number are decided under the lock.
        guard
            let current = try query(
                "SELECT current_revision FROM reports WHERE server_id = $1 FOR UPDATE", [.text(serverID)]
            )
            .first?.int("current_revision").map({ Int($0) })
        else {
            throw ServerError.notFound("no report '\(serverID)'")
        }
        guard current < limit else { throw ServerError.revisionLimit(serverID, limit: limit) }
        let issues: String
        if let issuesJSON {
            issues = issuesJSON
        } else {
            issues = try revision(serverID: serverID, revision: current)?.issuesJSON ?? "[]"
        }
        let next = current + 1
        try query(
            """
            INSERT INTO report_revisions (server_id, revision, base_revision, payload, issues, source, author_id, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """,
            [
                .text(serverID), .integer(Int64(next)), .optional(baseRevision), .text(CanonicalJSON.string(payload)),
                .text(issues), .text(source), .optional(authorID), .text(RFC3339.string(now)),
            ])
        try query(
            """
            UPDATE reports SET current_revision = $1, score = $2, follow_up_required = $3,
                follow_up_cleared_by = CASE WHEN $3 THEN NULL ELSE follow_up_cleared_by END
            WHERE server_id = $4
            """, [.integer(Int64(next)), .optional(score), .bool(payload.followUpRequired), .text(serverID)])
        return next
    }

    func clearFollowUp(parentServerID: String, childServerID: String) throws(ServerError) {
        try query(
            "UPDATE reports SET follow_up_cleared_by = $1 WHERE server_id = $2 AND follow_up_cleared_by IS NULL",
            [.text(childServerID), .text(parentServerID)])
    }
}
