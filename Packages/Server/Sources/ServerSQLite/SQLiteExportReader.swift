import Foundation
import Models
import ServerSQL
import ServerStore
import SQLite

/// An export's read of the SQLite store: a connection of its own to the
/// same file and one read transaction on it (WAL gives it one snapshot
/// while the server goes on writing), read a page at a time by position
/// (`review_change` is unique and indexed, so each page starts where the
/// last ended, in the same snapshot). Closing ends the transaction and the
/// connection. While it is open the WAL cannot be checkpointed past its
/// snapshot, so the file grows during a long export and shrinks after.
///
/// Used by one thread at a time (the export's), hence `@unchecked Sendable`.
final class SQLiteExportReader: ExportReader, @unchecked Sendable {
    private var database: Database?
    private let query: ExportQuery
    private var after: Int64
    let generation: String
    let lastChange: Int64
    let matching: Int
    let versions: [PublishedVersion]
    /// Reports a page holds at most.
    static let pageSize = 500

    init(path: String, query: ExportQuery) throws(ServerError) {
        self.query = query
        let database: Database
        do throws(SQLiteError) {
            database = try Database(path: path, mode: .readWrite)
            database.setBusyTimeout(milliseconds: 3_000)
            try database.execute("BEGIN")
        } catch {
            throw ServerError.database(error)
        }
        do throws(ServerError) {
            // The first read fixes the snapshot: everything below, and every page, sees the same data.
            let rows = { (sql: String, values: [SQLParameter]) throws(ServerError) -> [Row] in
                try database.query(sql, values.map(\.sqlValue))
            }
            let generation = try ExportStatements.generation(rows)
            let after = try query.position(generation: generation)
            let latest = try ExportStatements.latestChange(rows)
            let versions = try ExportStatements.versions(rows)
            let (filter, values) = Self.filter(query)
            let matching =
                try database.query(
                    "SELECT COUNT(*) AS matching FROM reports r WHERE r.review_change > ?" + filter,
                    [.integer(after)] + values
                ).first?.integer("matching") ?? 0
            self.matching = Int(matching)
            self.generation = generation
            self.after = after
            self.lastChange = max(latest, after)
            self.versions = versions
            self.database = database
        } catch {
            Self.end(database)
            throw error
        }
    }

    func nextPage() throws(ServerError) -> [ExportedReport] {
        guard let database else { return [] }
        var sql = ExportStatements.reports(flagged: "r.follow_up_required != 0 AND r.follow_up_cleared_by IS NULL")
        sql += "\nWHERE r.review_change > ?"
        let (filter, filterValues) = Self.filter(query)
        sql += filter
        var values: [SQLValue] = [.integer(after)] + filterValues
        sql += " ORDER BY r.review_change LIMIT ?"
        values.append(.integer(Int64(Self.pageSize)))
        let rows = try database.query(sql, values)
        guard let last = rows.last?.integer("review_change") else { return [] }
        after = last
        let photos = try photos(of: rows.compactMap { $0.text("server_id") }, in: database)
        return rows.map { row in
            let serverID = row.text("server_id") ?? ""
            let review = ExportedReview(
                revision: Int(row.integer("reviewed_revision") ?? 1),
                state: row.text("review_state").flatMap(ReviewState.init(rawValue:)) ?? .awaitingReview,
                decidedByID: row.text("review_decided_by"), decidedByName: row.text("review_decided_by_name"),
                decidedAt: row.text("review_decided_at"), comment: row.text("review_comment"),
                fieldCommentsJSON: row.text("review_field_comments") ?? "[]", change: row.integer("review_change") ?? 0)
            var report = ExportedReport(
                serverID: serverID, localID: row.text("local_id") ?? "", templateID: row.text("template_id") ?? "",
                facilityID: row.text("facility_id") ?? "", areaID: row.text("area_id"),
                assignmentID: row.text("assignment_id"),
                parentLocalID: row.text("parent_local_id"), parentServerID: row.text("parent_server_id"),
                completedAtDevice: row.text("completed_at_device"), acceptedAt: row.text("accepted_at") ?? "",
                revision: Int(row.integer("current_revision") ?? 1),
                baseRevision: row.integer("base_revision").map { Int($0) },
                score: row.real("score"), followUpRequired: (row.integer("flagged") ?? 0) != 0,
                payloadJSON: row.text("payload") ?? "{}", issuesJSON: row.text("issues") ?? "[]",
                revisionAcceptedAt: row.text("created_at") ?? "", inspector: row.text("username") ?? "", review: review,
                photos: photos[serverID] ?? [])
            report.gradeJSON = row.text("grade")
            return report
        }
    }

    /// The conditions beyond the position, and their values.
    private static func filter(_ query: ExportQuery) -> (String, [SQLValue]) {
        var sql = ""
        var values: [SQLValue] = []
        if let template = query.templateID { sql += " AND r.template_id = ?"; values.append(.text(template)) }
        if let facility = query.facilityID { sql += " AND r.facility_id = ?"; values.append(.text(facility)) }
        if let state = query.reviewState { sql += " AND r.review_state = ?"; values.append(.text(state.rawValue)) }
        return (sql, values)
    }

    /// The photos of a page's reports, by report, in upload order.
    private func photos(of serverIDs: [String], in database: Database) throws(ServerError) -> [String: [StoredPhoto]] {
        let list = CanonicalJSON.string(serverIDs)
        var byReport: [String: [StoredPhoto]] = [:]
        for row in try database.query(
            """
            SELECT \(SQLRecords.photoColumns) FROM photos WHERE server_id IN (SELECT value FROM json_each(?))
            ORDER BY created_at, local_id
            """, [.text(list)])
        {
            if let photo = SQLRecords.photo(row) { byReport[photo.serverID, default: []].append(photo) }
        }
        return byReport
    }

    func close() {
        guard let database else { return }
        self.database = nil
        Self.end(database)
    }

    /// Ends the read transaction; the connection closes as it is released.
    private static func end(_ database: Database) {
        do throws(SQLiteError) { try database.execute("ROLLBACK") } catch { _ = error }
    }
}
