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
            let (condition, values) = ExportStatements.conditions(query, after: after)
            let matching =
                try database.query(
                    "SELECT COUNT(*) AS matching FROM reports r WHERE " + condition, values.map(\.sqlValue)
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
        let (condition, values) = ExportStatements.conditions(query, after: after)
        let sql =
            ExportStatements.reports(
                flagged: "r.follow_up_required != 0 AND r.follow_up_cleared_by IS NULL", names: query.readsNames)
            + "\nWHERE " + condition + " ORDER BY r.review_change LIMIT ?"
        let rows = try database.query(sql, values.map(\.sqlValue) + [.integer(Int64(Self.pageSize))])
        guard let last = rows.last?.integer("review_change") else { return [] }
        after = last
        let serverIDs = CanonicalJSON.string(rows.compactMap { $0.text("server_id") })
        let photos = try photos(of: serverIDs, in: database)
        let actions =
            query.readsIssueActions
            ? ExportStatements.issueActions(
                try database.query(
                    ExportStatements.issueActions(ids: "SELECT value FROM json_each(?)"), [.text(serverIDs)]))
            : [:]
        return rows.map { row in
            var report = Self.report(row)
            report.photos = photos[report.serverID] ?? []
            report.issueActions = actions[report.serverID] ?? [:]
            return report
        }
    }

    /// One row of the page as the report it holds (without its photos and actions).
    private static func report(_ row: Row) -> ExportedReport {
        let review = ExportedReview(
            revision: Int(row.integer("reviewed_revision") ?? 1),
            state: row.text("review_state").flatMap(ReviewState.init(rawValue:)) ?? .awaitingReview,
            decidedByID: row.text("review_decided_by"), decidedByName: row.text("review_decided_by_name"),
            decidedAt: row.text("review_decided_at"), comment: row.text("review_comment"),
            fieldCommentsJSON: row.text("review_field_comments") ?? "[]", change: row.integer("review_change") ?? 0)
        var report = ExportedReport(
            serverID: row.text("server_id") ?? "", localID: row.text("local_id") ?? "",
            templateID: row.text("template_id") ?? "", facilityID: row.text("facility_id") ?? "",
            areaID: row.text("area_id"), assignmentID: row.text("assignment_id"),
            parentLocalID: row.text("parent_local_id"), parentServerID: row.text("parent_server_id"),
            completedAtDevice: row.text("completed_at_device"), acceptedAt: row.text("accepted_at") ?? "",
            revision: Int(row.integer("current_revision") ?? 1),
            baseRevision: row.integer("base_revision").map { Int($0) },
            score: row.real("score"), followUpRequired: (row.integer("flagged") ?? 0) != 0,
            payloadJSON: row.text("payload") ?? "{}", issuesJSON: row.text("issues") ?? "[]",
            revisionAcceptedAt: row.text("created_at") ?? "", inspector: row.text("username") ?? "", review: review)
        report.gradeJSON = row.text("grade")
        report.facilityName = row.text("facility_name")
        report.areaName = row.text("area_name")
        report.inspectorName = row.text("display_name")
        return report
    }

    /// The photos of a page's reports (`list`, a JSON array of their ids), by report, in upload order.
    private func photos(of list: String, in database: Database) throws(ServerError) -> [String: [StoredPhoto]] {
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
