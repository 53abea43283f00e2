import Foundation
import SQLite
import Models

/// What one page of the reviews feed changed on this device.
public struct ReviewPageResult: Sendable, Hashable {
    /// Reviews in the page.
    public var received = 0
    /// Reviews that changed a report's stored review.
    public var recorded = 0
    /// Reviews of reports this device does not hold, or of revisions older than the one it holds.
    public var ignored = 0
    /// Reports that came back returned for changes with this page.
    public var returned: [ReturnedReport] = []

    /// An empty result.
    public init() {}
}

/// A report a supervisor returned to its inspector.
public struct ReturnedReport: Sendable, Hashable {
    /// The report on this device.
    public var localID: UUID
    /// The report on the server.
    public var serverID: String

    /// A returned report.
    public init(localID: UUID, serverID: String) {
        self.localID = localID
        self.serverID = serverID
    }
}

/// Reviews (contract 1.1): the server's decisions about the revisions this
/// device sent, pulled by the sync cycle, kept beside each report's lifecycle.
extension LocalStore {
    /// Stores one page of `GET /reviews` and the cursor after it in ONE
    /// transaction, so a crash never keeps a cursor past reviews it lost.
    /// Each review goes through the lifecycle (`.reviewed`): one of a report
    /// this device does not hold, or of an older revision than the one it
    /// holds, is ignored; one equal to the stored review changes nothing
    /// (a feed pulled again from the start moves no report's retention).
    public func recordReviews(_ reviews: [WireReview], cursor: String) throws(StorageError) -> ReviewPageResult {
        try write { db throws(StorageError) -> ReviewPageResult in
            var result = ReviewPageResult()
            result.received = reviews.count
            // Most reviews repeat what the device holds (those of the reports it has just sent):
            // they are told apart on the review's columns alone, and only the others are read
            // as whole reports. A report reviewed again in the page is compared again on its row.
            var held = try Self.heldReviews(reviews.map(\.localID), db)
            let changed = reviews.filter { wire in
                guard let known = held.removeValue(forKey: wire.localID) else { return true }
                return (known.serverID != nil && known.serverID != wire.serverID) || known.review != ReportReview(wire)
            }
            // The other rows in one query; a report reviewed again in the page is read again.
            var rows = try Self.reportRows(changed.map(\.localID), db)
            for wire in changed {
                let review = ReportReview(wire)
                var read = rows.removeValue(forKey: wire.localID)
                if read == nil {
                    read = try db.firstRow(
                        "SELECT \(ReportRows.columns) FROM reports WHERE local_id = ?", [SQLValue(wire.localID)])
                }
                guard let row = read else {
                    result.ignored += 1
                    continue
                }
                let held = try ReportRows.report(from: row, readingAnswers: false)
                guard held.serverID == nil || held.serverID == wire.serverID else {
                    result.ignored += 1
                    continue
                }
                if held.lifecycle.review == review { continue }
                do throws(StorageError) {
                    _ = try Self.perform(.reviewed(review), on: wire.localID, reload: false, held: (row, held), db)
                } catch  where error.code == .notAllowed {
                    result.ignored += 1
                    continue
                }
                result.recorded += 1
                if review.isReturned,
                    held.lifecycle.review?.isReturned != true || held.lifecycle.review?.revision != review.revision
                {
                    result.returned.append(ReturnedReport(localID: wire.localID, serverID: wire.serverID))
                }
            }
            try Self.setMeta(MetaKey.reviewsCursor, cursor.isEmpty ? nil : cursor, db)
            try Self.setMeta(MetaKey.reviewsSupported, "true", db)
            return result
        }
    }

    /// The server id and stored review of each of `ids` the store holds, read
    /// from those columns only. A row whose review cannot be read is left out:
    /// the report is then read whole, and refused as damaged.
    private static func heldReviews(_ ids: [UUID], _ db: StoreDatabase) throws(StorageError)
        -> [UUID: (serverID: String?, review: ReportReview?)]
    {
        guard !ids.isEmpty else { return [:] }
        var held: [UUID: (serverID: String?, review: ReportReview?)] = [:]
        for row in try db.rows(
            """
            SELECT local_id, server_id, review_state, review_revision, review_decided_by_id, review_decided_by_name,
                review_decided_at, review_comment, review_field_comments
            FROM reports WHERE local_id IN (SELECT value FROM json_each(?))
            """,
            [ReportRows.idList(ids)])
        {
            guard let id = row["local_id"].uuidValue else { continue }
            do throws(StorageError) {
                let review = try ReportRows.review(from: row) { StorageError(.corruptStore, $0) }
                held[id] = (row["server_id"].stringValue, review)
            } catch {
                continue
            }
        }
        return held
    }

    /// Forgets the reviews cursor: the next pull asks for every review (a
    /// cursor the server refused, `CURSOR_INVALID`).
    public func dropReviewsCursor() throws(StorageError) {
        try setMeta(MetaKey.reviewsCursor, nil)
    }

    /// Records that the server has no reviews (it answered 404 on `/reviews`):
    /// reports without a review then read as having none, not as awaiting one.
    public func markReviewsUnsupported() throws(StorageError) {
        // Every cycle against such a server asks: nothing to write when nothing was kept.
        let supported = try meta(MetaKey.reviewsSupported), cursor = try meta(MetaKey.reviewsCursor)
        guard supported != nil || cursor != nil else { return }
        try write { db throws(StorageError) in
            try Self.setMeta(MetaKey.reviewsSupported, nil, db)
            try Self.setMeta(MetaKey.reviewsCursor, nil, db)
        }
    }

    /// True once the server answered the reviews feed (and until it answers 404).
    public func reviewsSupported() throws(StorageError) -> Bool {
        try meta(MetaKey.reviewsSupported) == "true"
    }

    /// How many reports were returned for changes and not sent again yet
    /// (SYNCED, or amended and still a DRAFT).
    public func returnedCount() throws(StorageError) -> Int {
        try read { db throws(StorageError) -> Int in
            Int(
                try db.scalar(
                    "SELECT count(*) FROM reports WHERE review_state = 'returned' AND state IN ('SYNCED', 'DRAFT')"
                )
                .int64Value ?? 0)
        }
    }

    /// The reports returned for changes and not sent again yet, newest first.
    public func returnedReports() throws(StorageError) -> [Report] {
        try read { db throws(StorageError) -> [Report] in
            try db.rows(
                """
                SELECT \(ReportRows.columns) FROM reports
                WHERE review_state = 'returned' AND state IN ('SYNCED', 'DRAFT') ORDER BY creation_seq DESC
                """
            ).map { (row: Row) throws(StorageError) -> Report in try ReportRows.report(from: row) }
        }
    }
}
