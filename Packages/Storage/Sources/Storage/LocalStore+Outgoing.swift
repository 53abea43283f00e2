import Foundation
import SQLite
import Models

/// Reading a batch of reports for the sync request: three queries for the
/// whole batch (reports, issues, the photos of issues), whatever its size,
/// and no answers parsed.
extension LocalStore {
    /// The reports of `ids` as the sync request sends them, in the order of
    /// `ids`; one no longer on this device is left out. A re-inspection whose
    /// parent this device holds names the parent's server id as it is now: a
    /// parent sent again to a server restored from a backup has a new one, or
    /// none yet (the server then finds it by its local id, sent before it).
    public func outgoingReports(_ ids: [UUID]) throws(StorageError) -> [OutgoingReport] {
        guard !ids.isEmpty else { return [] }
        // One statement text for any number of ids: they are bound as one JSON array.
        let list = ReportRows.idList(ids)
        return try read { db throws(StorageError) -> [OutgoingReport] in
            var photosOfIssues: [UUID: [UUID]] = [:]
            for row in try db.rows(
                """
                SELECT local_id, issue_local_id FROM photos
                WHERE report_local_id IN (SELECT value FROM json_each(?)) AND issue_local_id IS NOT NULL ORDER BY creation_seq
                """, [list])
            {
                guard let photo = row[0].uuidValue,
                    let issue = row[1].uuidValue
                else {
                    throw StorageError(
                        .corruptStore, "A photo record cannot be read; the store is damaged.", context: "photos")
                }
                photosOfIssues[issue, default: []].append(photo)
            }
            var issues: [UUID: [WireIssue]] = [:]
            for row in try db.rows(
                """
                SELECT local_id, report_local_id, severity, description FROM issues
                WHERE report_local_id IN (SELECT value FROM json_each(?)) ORDER BY creation_seq
                """, [list])
            {
                guard let localID = row[0].uuidValue,
                    let report = row[1].uuidValue,
                    let severity = IssueSeverity(rawValue: row[2].stringValue ?? ""),
                    let description = row[3].stringValue
                else {
                    throw StorageError(
                        .corruptStore, "An issue record cannot be read; the store is damaged.", context: "issues")
                }
                issues[report, default: []].append(
                    WireIssue(
                        localID: localID, severity: severity, description: description,
                        photoLocalIDs: photosOfIssues[localID] ?? []))
            }
            var byID: [UUID: OutgoingReport] = [:]
            for row in try db.rows(
                """
                SELECT r.local_id, r.server_id, r.base_revision, r.assignment_id, r.template_id, r.template_version,
                    r.facility_id, r.area_id, r.parent_local_id,
                    CASE WHEN EXISTS (SELECT 1 FROM reports p WHERE p.local_id = r.parent_local_id)
                        THEN (SELECT p.server_id FROM reports p WHERE p.local_id = r.parent_local_id)
                        ELSE r.parent_server_id END,
                    r.completed_at_device, r.answers, r.score, r.follow_up_required
                FROM reports r WHERE r.local_id IN (SELECT value FROM json_each(?))
                """, [list])
            {
                let id = row[0].stringValue ?? "?"
                func damaged(_ column: String) -> StorageError {
                    StorageError(
                        .corruptStore,
                        "The report '\(id)' in the store cannot be read (column \(column)); the store is damaged.",
                        context: "reports.\(column)")
                }
                guard let localID = row[0].uuidValue else { throw damaged("local_id") }
                guard let templateID = row[4].stringValue, let facilityID = row[6].stringValue else {
                    throw damaged("template_id")
                }
                guard let answers = row[11].stringValue else { throw damaged("answers") }
                byID[localID] = OutgoingReport(
                    localID: localID, serverID: row[1].stringValue, baseRevision: row[2].int64Value.map(Int.init),
                    assignmentID: row[3].stringValue, templateID: templateID,
                    templateVersion: row[5].int64Value.map(Int.init),
                    facilityID: facilityID, areaID: row[7].stringValue,
                    parentLocalID: row[8].uuidValue, parentServerID: row[9].stringValue,
                    completedAtDevice: ReportRows.date(row[10]), answersJSON: answers, score: row[12].doubleValue,
                    followUpRequired: (row[13].int64Value ?? 0) != 0, issues: issues[localID] ?? [])
            }
            return ids.compactMap { byID[$0] }
        }
    }
}
