import Foundation
import Models
import Storage

/// A batch read from the store with its request written, ready to be sent
/// once the answer to the batch before it is recorded.
struct PreparedBatch: Sendable {
    /// The reports named by the cycle, in order.
    let ids: [UUID]
    /// The reports as read (one no longer on this device is left out).
    let reports: [OutgoingReport]
    /// The request as written when the batch was read.
    let written: SyncRequestBody
    private let deviceID: UUID
    private let appVersion: String

    /// `reports` read for `ids`, their request written at once.
    init(ids: [UUID], reports: [OutgoingReport], deviceID: UUID, appVersion: String) {
        self.ids = ids
        self.reports = reports
        self.deviceID = deviceID
        self.appVersion = appVersion
        written = SyncRequestBody(
            deviceID: deviceID, appVersion: appVersion, schemaVersion: Report.currentSchemaVersion,
            reports: reports)
    }

    /// The request to send. A re-inspection read before its parent's answer
    /// was recorded is given the parent's server id from `knownServerIDs`
    /// (the request is then written again).
    func body(knownServerIDs: [UUID: String]) -> SyncRequestBody {
        var reports = self.reports
        var changed = false
        for index in reports.indices where reports[index].parentServerID == nil {
            if let parent = reports[index].parentLocalID, let serverID = knownServerIDs[parent] {
                reports[index].parentServerID = serverID
                changed = true
            }
        }
        guard changed else { return written }
        return SyncRequestBody(
            deviceID: deviceID, appVersion: appVersion, schemaVersion: Report.currentSchemaVersion, reports: reports)
    }
}
