import Foundation
import Models
import Storage

/// Builds the `WireReport` of a stored report: answers, score, follow-up,
/// issues with their photo ids, the server id and base revision of an
/// amendment, and the parent's ids for a re-inspection.
enum ReportPayload {
    /// The report as the contract sends it; nil when it is no longer on this device.
    static func wire(_ localID: UUID, store: LocalStore) throws(StorageError) -> WireReport? {
        guard let report = try store.report(localID) else { return nil }
        let photos = try store.photos(ofReport: localID)
        let issues = try store.issues(ofReport: localID).map { issue in
            WireIssue(localID: issue.localID, severity: issue.severity, description: issue.description,
                      photoLocalIDs: photos.filter { $0.issueLocalID == issue.localID }.map(\.localID))
        }
        var parentServerID = report.parentServerID
        if parentServerID == nil, let parent = report.parentLocalID {
            // The parent may have been accepted since the re-inspection started.
            parentServerID = try store.report(parent)?.serverID
        }
        return WireReport(
            localID: report.localID, serverID: report.serverID, baseRevision: report.lifecycle.baseRevision,
            assignmentID: report.assignmentID, templateID: report.templateID, templateVersion: report.templateVersion,
            facilityID: report.facilityID,
            areaID: report.areaID, parentLocalID: report.parentLocalID, parentServerID: parentServerID,
            completedAtDevice: report.completedAtDevice.map(rfc3339),
            payload: WirePayload(answers: report.answers.json, score: report.score, followUpRequired: report.followUpRequired),
            issues: issues)
    }

    /// RFC 3339 UTC, for diagnostic timestamps.
    static func rfc3339(_ date: Date) -> String { RFC3339.string(date) }
}
