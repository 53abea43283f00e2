import Foundation
import Models
import SQLite

extension LocalStore {
    /// Reports newest first (optionally of one state, at most `limit`), each
    /// handed to `body` as it is read: memory stays flat however many there are.
    /// `body` returns false to stop.
    public func forEachListing(state: ReportState?, limit: Int?, _ body: (ReportListing) -> Bool) throws(StorageError) {
        var sql = """
            SELECT r.local_id AS local_id, r.state AS state, r.template_id AS template_id, t.name AS template_name,
                   r.facility_id AS facility_id, r.area_id AS area_id, r.server_id AS server_id, r.score AS score,
                   r.follow_up_required AS follow_up_required, r.parent_local_id AS parent_local_id,
                   r.review_state AS review_state
            FROM reports r LEFT JOIN templates t ON t.id = r.template_id
            """
        var values: [SQLValue] = []
        if let state {
            sql += " WHERE r.state = ?"
            values.append(.text(state.rawValue))
        }
        sql += " ORDER BY r.creation_seq DESC"
        if let limit {
            sql += " LIMIT ?"
            values.append(.integer(Int64(max(0, limit))))
        }
        try read { db throws(StorageError) in
            // Columns by position, in the order of the SELECT above.
            try db.forEachRow(sql, values) { row in
                body(
                    ReportListing(
                        localID: row.text(0) ?? "", state: row.text(1) ?? "", templateID: row.text(2) ?? "",
                        templateName: row.text(3), facilityID: row.text(4) ?? "", areaID: row.text(5),
                        serverID: row.text(6), score: row.double(7), followUpRequired: (row.integer(8) ?? 0) != 0,
                        parentLocalID: row.text(9), reviewState: row.text(10)))
            }
        }
    }

    /// How many reports there are (of one state).
    public func reportCount(state: ReportState?) throws(StorageError) -> Int {
        try read { db throws(StorageError) in
            let value =
                if let state {
                    try db.scalar("SELECT COUNT(*) FROM reports WHERE state = ?", [.text(state.rawValue)])
                } else {
                    try db.scalar("SELECT COUNT(*) FROM reports")
                }
            return Int(value.int64Value ?? 0)
        }
    }
}
