import Foundation
import SQLite
import Models

/// A report the server accepted, as a restored server is checked for it.
public struct AcceptedReport: Sendable, Hashable {
    /// The report.
    public var localID: UUID
    /// Its server id.
    public var serverID: String
    /// The server revision this device's answers are (its base revision).
    public var baseRevision: Int
    /// Its photos this device uploaded.
    public var uploadedPhotos: [UUID]

    /// An accepted report.
    public init(localID: UUID, serverID: String, baseRevision: Int, uploadedPhotos: [UUID]) {
        self.localID = localID
        self.serverID = serverID
        self.baseRevision = baseRevision
        self.uploadedPhotos = uploadedPhotos
    }
}

/// What a restored server lacks of a report the device holds as accepted.
public enum RestoreRepair: Sendable, Hashable {
    /// The report itself: it goes back in the queue as never sent, every photo with it (`serverLost`).
    case report
    /// The device's revision: the server holds `serverRevision`, older; the
    /// answers go again based on it (`serverBehind`), these photos with them.
    case revision(serverRevision: Int, photos: [UUID])
    /// These photos: uploaded again (`serverLostPhotos`).
    case photos([UUID])
}

/// After the server was restored from a backup (its `server_generation`
/// changed): what the device holds as accepted, and sending again what the
/// server lost, each change one transaction.
extension LocalStore {
    /// The reports this device holds as accepted by the server: SYNCED, and
    /// PENDING, CONFLICT and DRAFT ones with a server id (accepted and waiting
    /// for photos, an amendment waiting to go, in conflict, or being written),
    /// in creation order, with their photos already UPLOADED. A conflict's
    /// base revision is the server's revision it met.
    public func acceptedReports() throws(StorageError) -> [AcceptedReport] {
        try acceptedReports(after: 0).map(\.report)
    }

    /// `acceptedReports()` made after the report of creation sequence
    /// `cursor` (0: from the first), each with its own sequence number: the
    /// check of a restored server goes on from where an earlier cycle stopped.
    public func acceptedReports(after cursor: Int64) throws(StorageError) -> [(sequence: Int64, report: AcceptedReport)]
    {
        try read { db throws(StorageError) -> [(sequence: Int64, report: AcceptedReport)] in
            // A conflict's base is the server's revision it met; an amendment being written holds its base too.
            let rows = try db.rows(
                """
                SELECT local_id, server_id, max(COALESCE(base_revision, 0), COALESCE(conflict_server_revision, 0)) AS base_revision,
                       creation_seq FROM reports
                WHERE server_id IS NOT NULL AND state IN (?, ?, ?, ?) AND creation_seq > ?
                ORDER BY creation_seq
                """,
                [
                    .text(ReportState.synced.rawValue), .text(ReportState.pending.rawValue),
                    .text(ReportState.conflict.rawValue),
                    .text(ReportState.draft.rawValue), .integer(cursor),
                ])
            var reports: [(sequence: Int64, report: AcceptedReport)] = []
            for row in rows {
                guard let localID = row["local_id"].uuidValue, let serverID = row["server_id"].stringValue else {
                    continue
                }
                let photos = try db.rows(
                    "SELECT local_id FROM photos WHERE report_local_id = ? AND upload_state = ? ORDER BY creation_seq",
                    [SQLValue(localID), .text(PhotoUploadState.uploaded.rawValue)]
                )
                .compactMap { $0["local_id"].stringValue.flatMap(UUID.init(uuidString:)) }
                reports.append(
                    (
                        Int64(row["creation_seq"].int64Value ?? 0),
                        AcceptedReport(
                            localID: localID, serverID: serverID,
                            baseRevision: Int(row["base_revision"].int64Value ?? 0),
                            uploadedPhotos: photos)
                    ))
            }
            return reports
        }
    }

    /// Sends again to a restored server what it lacks of a report, in one
    /// transaction: the lifecycle's event for `repair`, and the photos it
    /// names (every one, for a lost report) set back to PENDING, any
    /// resumable upload begun for them forgotten.
    @discardableResult
    public func sendAgain(_ localID: UUID, _ repair: RestoreRepair) throws(StorageError) -> Report {
        let event: ReportEvent
        var photos: [UUID]?
        switch repair {
        case .report: event = .serverLost
        case .revision(let revision, let lacking): event = .serverBehind(revision: revision); photos = lacking
        case .photos(let lacking): event = .serverLostPhotos; photos = lacking
        }
        return try perform(
            event, on: localID,
            alongside: { db throws(StorageError) in
                let ids: [UUID]
                if let photos {
                    ids = photos
                } else {
                    ids = try db.rows("SELECT local_id FROM photos WHERE report_local_id = ?", [SQLValue(localID)])
                        .compactMap { $0["local_id"].stringValue.flatMap(UUID.init(uuidString:)) }
                }
                for photo in ids {
                    try db.run(
                        "UPDATE photos SET upload_state = ?, last_error = NULL WHERE local_id = ? AND report_local_id = ?",
                        [.text(PhotoUploadState.pending.rawValue), SQLValue(photo), SQLValue(localID)])
                    try db.run("DELETE FROM photo_upload_sessions WHERE photo_local_id = ?", [SQLValue(photo)])
                }
            })
    }

    /// Takes the server's new generation, in one transaction: the reviews
    /// and assignments cursors (of the data before) are dropped, so both are
    /// pulled from their start.
    public func adoptServerGeneration(_ generation: String) throws(StorageError) {
        _ = try write { db throws(StorageError) -> Bool in
            try Self.setMeta(MetaKey.reviewsCursor, nil, db)
            try Self.setMeta(MetaKey.assignmentsCursor, nil, db)
            try Self.setMeta(MetaKey.serverGeneration, generation, db)
            try Self.setMeta(MetaKey.generationCheck, nil, db)
            return true
        }
    }
}
