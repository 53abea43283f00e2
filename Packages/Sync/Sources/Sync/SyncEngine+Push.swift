import Foundation
import Models
import Storage

extension SyncEngine {
    /// The PENDING reports in creation order (BR-04), with what the cycle
    /// needs to decide whether each is due; their answers are not read.
    func loadQueue() throws(StorageError) -> [SyncCycle.Candidate] {
        try store.pendingQueue().map { report in
            SyncCycle.Candidate(localID: report.localID, attemptCount: report.attemptCount, nextAttemptAt: report.nextAttemptAt,
                                awaitingPhotos: report.acceptedRevision != nil, outstandingPhotos: report.outstandingPhotos,
                                parentLocalID: report.parentLocalID,
                                isAmendment: report.serverID != nil && report.acceptedRevision == nil)
        }
    }

    /// Reads a batch's reports from the store as the contract sends them:
    /// each report's answers are read here, once.
    func wireReports(_ ids: [UUID]) throws(StorageError) -> [WireReport] {
        var reports: [WireReport] = []
        for id in ids {
            if let wire = try ReportPayload.wire(id, store: store) { reports.append(wire) }
        }
        return reports
    }

    /// One batch's request. A re-inspection read before its parent's answer
    /// was recorded is given the parent's server id from `knownServerIDs`.
    func request(_ reports: [WireReport], knownServerIDs: [UUID: String]) throws(StorageError) -> SyncRequest {
        var reports = reports
        for index in reports.indices where reports[index].parentServerID == nil {
            if let parent = reports[index].parentLocalID, let serverID = knownServerIDs[parent] {
                reports[index].parentServerID = serverID
            }
        }
        // Disjoint edits merge on a 1.1 server; a 1.0 server ignores the key and answers as before.
        return SyncRequest(deviceID: try store.deviceID(), appVersion: configuration.appVersion,
                           schemaVersion: Report.currentSchemaVersion, reports: reports, merge: SyncRequest.mergeFields)
    }

    /// Sends one batch as `POST /reports/sync`; the answer as the cycle's event.
    func send(_ request: SyncRequest) async -> SyncCycle.Event {
        do throws(APIError) {
            let response = try await client.syncReports(request)
            rememberContract(response.contractVersion ?? "1.0")
            return .batchAnswered(results: response.results, minimumAppVersion: response.minSupportedAppVersion,
                                  serverGeneration: response.serverGeneration)
        } catch {
            return .batchFailed(SyncFailure(error))
        }
    }

    /// Stores the contract the server speaks, where the photo phase reads it
    /// (this run's and a later one's, which may send no batch). Only a hint:
    /// a store that cannot take it now is told again by the next answer.
    private func rememberContract(_ version: String) {
        do throws(StorageError) {
            if try store.meta(MetaKey.serverContract) != version { try store.setMeta(MetaKey.serverContract, version) }
        } catch {
            return
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
