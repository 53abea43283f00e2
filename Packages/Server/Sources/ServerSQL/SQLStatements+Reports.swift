import Foundation
import Models
import ServerStore

/// Reports and their revisions. Inside a PostgreSQL write every report read
/// is locked until commit (`lockClause`), so the revision a rule judged
/// against is still the current one when the next is written.
extension SQLStatements {
    public func report(localID: UUID) throws(ServerError) -> StoredReport? {
        try firstRow("SELECT \(SQLRecords.reportColumns) FROM reports WHERE local_id = ?\(lockClause)", [.id(localID)])
            .flatMap { SQLRecords.report($0) }
    }

    public func report(serverID: String) throws(ServerError) -> StoredReport? {
        try firstRow(
            "SELECT \(SQLRecords.reportColumns) FROM reports WHERE server_id = ?\(lockClause)", [.text(serverID)]
        ).flatMap { SQLRecords.report($0) }
    }

    public func revision(serverID: String, revision: Int) throws(ServerError) -> StoredRevision? {
        try firstRow(
            """
            SELECT revision, base_revision, payload, issues, source, merged_fields, grade FROM report_revisions
            WHERE server_id = ? AND revision = ?
            """, [.text(serverID), .count(revision)]
        ).map { SQLRecords.revision($0) }
    }

    public func recordMerge(serverID: String, revision: Int, sentPayloadJSON: String, mergedFields: [String])
        throws(ServerError)
    {
        try run(
            "UPDATE report_revisions SET sent_payload = ?, merged_fields = ? WHERE server_id = ? AND revision = ?",
            [.text(sentPayloadJSON), .text(MergeRecord.json(mergedFields)), .text(serverID), .count(revision)])
    }

    /// Keeps a report's first revision, as the device sent it.
    public func insertFirstRevision(
        serverID: String, baseRevision: Int?, payloadJSON: String, issuesJSON: String, grade: ReportGrade,
        ownerID: String, stamp: String
    ) throws(ServerError) {
        try run(
            """
            INSERT INTO report_revisions
                (server_id, revision, base_revision, payload, issues, grade, source, author_id, created_at)
            VALUES (?, 1, ?, ?, ?, ?, 'device', ?, ?)
            """,
            [
                .text(serverID), .optional(baseRevision), .text(payloadJSON), .text(issuesJSON), .text(grade.json),
                .text(ownerID), .text(stamp),
            ])
        try keepDeficiencies(serverID: serverID, grade.deficiencies)
    }

    public func appendRevision(
        serverID: String, baseRevision: Int?, payload: WirePayload, issuesJSON: String?, grade: ReportGrade,
        source: String, authorID: String?, limit: Int, now: Date
    ) throws(ServerError) -> Int {
        guard let current = try currentRevision(serverID: serverID) else {
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
        try run(
            """
            INSERT INTO report_revisions
                (server_id, revision, base_revision, payload, issues, grade, source, author_id, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(serverID), .count(next), .optional(baseRevision), .text(CanonicalJSON.string(payload)),
                .text(issues), .text(grade.json), .text(source), .optional(authorID), .stamp(now),
            ])
        try run(
            """
            UPDATE reports SET current_revision = ?, score = ?, passed = ?, deficiency_count = ?, follow_up_required = ?,
                follow_up_cleared_by = CASE WHEN ? THEN NULL ELSE follow_up_cleared_by END
            WHERE server_id = ?
            """,
            [
                .count(next), .optional(grade.score), .optional(grade.passed), .count(grade.deficiencies.count),
                .flag(payload.followUpRequired), .flag(payload.followUpRequired),
                .text(serverID),
            ])
        try keepDeficiencies(serverID: serverID, grade.deficiencies)
        return next
    }

    public func clearFollowUp(parentServerID: String, childServerID: String) throws(ServerError) {
        try run(
            "UPDATE reports SET follow_up_cleared_by = ? WHERE server_id = ? AND follow_up_cleared_by IS NULL",
            [.text(childServerID), .text(parentServerID)])
    }

    public func currentIssues(serverIDs: [String]) throws(ServerError) -> [String: String] {
        guard !serverIDs.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: serverIDs.count).joined(separator: ", ")
        var found: [String: String] = [:]
        for row in try rows(
            """
            SELECT v.server_id AS server_id, v.issues AS issues FROM reports r
            JOIN report_revisions v ON v.server_id = r.server_id AND v.revision = r.current_revision
            WHERE r.server_id IN (\(marks))
            """, serverIDs.map { .text($0) })
        {
            if let id = row.text("server_id") { found[id] = row.text("issues") ?? "[]" }
        }
        return found
    }
}
