import Foundation
import Models
import Storage

extension SyncEngine {
    /// The PENDING reports in creation order (BR-04), with what the cycle
    /// needs to decide whether each is due.
    func loadQueue() throws(StorageError) -> [SyncCycle.Candidate] {
        try store.pendingReports().map { (report: Report) throws(StorageError) -> SyncCycle.Candidate in
            SyncCycle.Candidate(localID: report.localID, attemptCount: report.lifecycle.attemptCount,
                                nextAttemptAt: try store.nextAttempt(of: report.localID),
                                awaitingPhotos: report.lifecycle.acceptedRevision != nil,
                                outstandingPhotos: try store.outstandingPhotoCount(ofReport: report.localID),
                                parentLocalID: report.parentLocalID)
        }
    }

    /// Sends one batch as `POST /reports/sync`.
    func send(_ ids: [UUID], run: inout SyncRun) async throws(StorageError) -> SyncCycle.Event {
        var reports: [WireReport] = []
        for id in ids {
            if let wire = try ReportPayload.wire(id, store: store) { reports.append(wire) }
        }
        let request = SyncRequest(deviceID: try store.deviceID(), appVersion: configuration.appVersion,
                                  schemaVersion: Report.currentSchemaVersion, reports: reports)
        do throws(APIError) {
            let response = try await client.syncReports(request)
            run.reportsSent += ids.count
            progress(.reports(sent: run.reportsSent))
            return .batchAnswered(results: response.results, minimumAppVersion: response.minSupportedAppVersion)
        } catch {
            return .batchFailed(SyncFailure(error))
        }
    }

    /// Clears the follow-up flag of re-inspected parents still on this device
    /// (by local id only: never guessed from template and facility).
    func clearFollowUp(_ parents: [UUID]) throws(StorageError) {
        for parent in parents where try store.report(parent)?.followUpRequired == true {
            try store.setFollowUpRequired(parent, false)
        }
    }
}
