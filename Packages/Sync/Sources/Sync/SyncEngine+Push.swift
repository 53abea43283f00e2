import Foundation
import Models
import Storage

extension SyncEngine {
    /// The PENDING reports in creation order (BR-04), with what the cycle
    /// needs to decide whether each is due; their answers are not read.
    func loadQueue() throws(StorageError) -> [SyncCycle.Candidate] {
        try store.pendingQueue().map { report in
            SyncCycle.Candidate(
                localID: report.localID, attemptCount: report.attemptCount, nextAttemptAt: report.nextAttemptAt,
                awaitingPhotos: report.acceptedRevision != nil, outstandingPhotos: report.outstandingPhotos,
                parentLocalID: report.parentLocalID,
                isAmendment: report.serverID != nil && report.acceptedRevision == nil)
        }
    }

    /// Reads a batch's reports from the store and writes its request.
    func prepare(_ ids: [UUID], run: inout SyncRun) throws(StorageError) -> PreparedBatch {
        let deviceID: UUID
        if let known = run.deviceID { deviceID = known } else { deviceID = try store.deviceID() }
        run.deviceID = deviceID
        let reports = try store.outgoingReports(ids)
        return PreparedBatch(ids: ids, reports: reports, deviceID: deviceID, appVersion: configuration.appVersion)
    }

    /// Sends one batch as `POST /reports/sync`; the answer as the cycle's event.
    func send(_ body: SyncRequestBody) async -> SyncCycle.Event {
        do throws(APIError) {
            let response = try await client.syncReports(body)
            rememberContract(response.contractVersion ?? "1.0")
            return .batchAnswered(
                results: response.results, minimumAppVersion: response.minSupportedAppVersion,
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
