import Foundation
import Models
import ServerSQL
import ServerStore

/// Reports as SQLite numbers them (`seq`, the highest so far plus one) and
/// compares a revision's base (`IS`).
extension SQLiteSession {
    func currentRevision(serverID: String) throws(ServerError) -> Int? {
        try report(serverID: serverID)?.currentRevision
    }

    func deviceRevision(serverID: String, baseRevision: Int?, payloadJSON: String) throws(ServerError) -> Int? {
        try firstRow(
            """
            SELECT revision FROM report_revisions
            WHERE server_id = ? AND source = 'device' AND base_revision IS ? AND COALESCE(sent_payload, payload) = ?
            ORDER BY revision LIMIT 1
            """, [.text(serverID), .optional(baseRevision), .text(payloadJSON)]
        )?.integer("revision").map { Int($0) }
    }

    func insertReport(
        _ report: WireReport, ownerID: String, payloadJSON: String, issuesJSON: String, grade: ReportGrade,
        now: Date
    ) throws(ServerError) -> String {
        let seq = (try firstRow("SELECT COALESCE(MAX(seq), 0) AS latest FROM reports")?.integer("latest") ?? 0) + 1
        let serverID = ServerID.make()
        let stamp = RFC3339.string(now)
        try run(
            """
            INSERT INTO reports (server_id, seq, local_id, owner_id, template_id, facility_id, area_id, assignment_id,
                parent_local_id, parent_server_id, completed_at_device, current_revision, score, passed, deficiency_count,
                follow_up_required, accepted_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
            """,
            [
                .text(serverID), .integer(seq), .id(report.localID), .text(ownerID), .text(report.templateID),
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
