import Foundation
import Models
import ServerStore

/// Reports as PostgreSQL numbers them (a sequence), compares a revision's
/// base (`IS NOT DISTINCT FROM`) and locks the one a revision is added to.
extension PostgresSession {
    /// Locked (FOR UPDATE) here whatever the session: the cap and the next number are decided under the lock.
    func currentRevision(serverID: String) throws(ServerError) -> Int? {
        try firstRow("SELECT current_revision FROM reports WHERE server_id = $1 FOR UPDATE", [.text(serverID)])?
            .integer("current_revision").map { Int($0) }
    }

    func deviceRevision(serverID: String, baseRevision: Int?, payloadJSON: String) throws(ServerError) -> Int? {
        try firstRow(
            """
            SELECT revision FROM report_revisions
            WHERE server_id = $1 AND source = 'device' AND base_revision IS NOT DISTINCT FROM $2::integer
                AND COALESCE(sent_payload, payload) = $3
            ORDER BY revision LIMIT 1
            """, [.text(serverID), .optional(baseRevision), .text(payloadJSON)]
        )?.integer("revision").map { Int($0) }
    }

    func insertReport(
        _ report: WireReport, ownerID: String, payloadJSON: String, issuesJSON: String, grade: ReportGrade,
        now: Date
    ) throws(ServerError) -> String {
        let serverID = ServerID.make()
        let stamp = RFC3339.string(now)
        try run(
            """
            INSERT INTO reports (server_id, local_id, owner_id, template_id, facility_id, area_id, assignment_id,
                parent_local_id, parent_server_id, completed_at_device, current_revision, score, passed, deficiency_count,
                follow_up_required, accepted_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, $11, $12, $13, $14, $15)
            """,
            [
                .text(serverID), .id(report.localID), .text(ownerID), .text(report.templateID),
                .text(report.facilityID), .optional(report.areaID), .optional(report.assignmentID),
                .id(report.parentLocalID), .optional(report.parentServerID), .optional(report.completedAtDevice),
                .optional(grade.score), .optional(grade.passed), .count(grade.deficiencies.count),
                .flag(report.payload.followUpRequired), .text(stamp),
            ])
        try insertFirstRevision(
            serverID: serverID, baseRevision: report.baseRevision, payloadJSON: payloadJSON, issuesJSON: issuesJSON,
            grade: grade, ownerID: ownerID, stamp: stamp)
        return serverID
    }
}
