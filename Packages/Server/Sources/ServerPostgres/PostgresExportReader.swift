import Foundation
import Models
import PostgreSQL
import ServerSQL
import ServerStore

/// An export's read of the PostgreSQL store: one pooled connection held
/// for the whole export, a REPEATABLE READ READ ONLY transaction on it (one
/// snapshot), and a cursor over the matching reports in order of review
/// change, fetched a page at a time (the next page's FETCH sent while one is
/// turned into reports), so the server holds a page or two whatever the
/// size. Closing rolls the transaction back (ending the cursor, after any
/// FETCH sent ahead) and gives the connection back; a connection that broke
/// is dropped by the pool.
///
/// Used by one thread at a time (the export's), hence `@unchecked Sendable`.
final class PostgresExportReader: ExportReader, @unchecked Sendable {
    private let pool: ConnectionPool
    private var connection: PostgresConnection?
    private var drained = false
    /// Whether each page reads the action each issue became.
    private let readsIssueActions: Bool
    let generation: String
    let lastChange: Int64
    let matching: Int
    let versions: [PublishedVersion]
    /// Reports one FETCH takes at most.
    static let pageSize = 1000
    private static let fetch = "FETCH \(pageSize) FROM jqc_export"

    init(pool: ConnectionPool, query: ExportQuery) throws(ServerError) {
        self.pool = pool
        let connection = try pool.checkOut()
        do throws(ServerError) {
            try Self.run(connection, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            // The snapshot waits on a reader as slow as its network; it holds no row lock.
            try Self.run(connection, "SET LOCAL idle_in_transaction_session_timeout = 0")
            let rows = { (sql: String, values: [SQLParameter]) throws(ServerError) -> [PostgresRow] in
                try Self.rows(connection, PostgresPlaceholders.numbered(sql), values.map(\.postgresValue))
            }
            let generation = try ExportStatements.generation(rows)
            let after = try query.position(generation: generation)
            let latest = try ExportStatements.latestChange(rows)
            let versions = try ExportStatements.versions(rows)
            let (condition, values) = ExportStatements.conditions(query, after: after)
            let filters = values.map(\.postgresValue)
            let matching =
                try Self.rows(
                    connection,
                    PostgresPlaceholders.numbered("SELECT COUNT(*) AS matching FROM reports r WHERE " + condition),
                    filters
                ).first?.integer("matching") ?? 0
            let reports = ExportStatements.reports(
                flagged: "r.follow_up_required AND r.follow_up_cleared_by IS NULL", names: query.readsNames)
            try Self.rows(
                connection,
                PostgresPlaceholders.numbered(
                    "DECLARE jqc_export NO SCROLL CURSOR FOR\n" + reports
                        + "\nWHERE \(condition)\nORDER BY r.review_change"),
                filters)
            self.readsIssueActions = query.readsIssueActions
            self.matching = Int(matching)
            self.generation = generation
            self.lastChange = max(latest, after)
            self.versions = versions
            self.connection = connection
        } catch {
            Self.end(connection, pool: pool)
            throw error
        }
    }

    func nextPage() throws(ServerError) -> [ExportedReport] {
        guard let connection, !drained else { return [] }
        // The page is read in place from libpq's result: numbers parsed from
        // their digits, a string made only of what the report keeps. Once it
        // has arrived (and its photos been asked for), the next page's FETCH
        // is sent, so that PostgreSQL reads it while this one is turned into reports.
        var reports: [ExportedReport] = []
        var extras = PageExtras()
        let drained: Bool
        do throws(PostgresError) {
            (reports, drained) = try connection.withResult(Self.fetch) { page throws(PostgresError) in
                let at = Columns(page)
                let full = page.rowCount >= Self.pageSize
                if page.rowCount > 0 {
                    let ids = (0..<page.rowCount).map { page.string($0, at.serverID) ?? "" }
                    extras = try PageExtras(
                        ids: Self.jsonArray(ids), issueActions: readsIssueActions, connection: connection)
                }
                if full { try connection.send(Self.fetch) }
                var reports: [ExportedReport] = []
                reports.reserveCapacity(page.rowCount)
                for row in 0..<page.rowCount {
                    func text(_ column: Int?) -> String? { page.string(row, column) }
                    let review = ExportedReview(
                        revision: page.int(row, at.reviewedRevision).map { Int($0) } ?? 1,
                        state: text(at.reviewState).flatMap(ReviewState.init(rawValue:)) ?? .awaitingReview,
                        decidedByID: text(at.decidedBy), decidedByName: text(at.decidedByName),
                        decidedAt: text(at.decidedAt),
                        comment: text(at.comment), fieldCommentsJSON: text(at.fieldComments) ?? "[]",
                        change: page.int(row, at.change) ?? 0)
                    var report =
                        ExportedReport(
                            serverID: text(at.serverID) ?? "", localID: text(at.localID) ?? "",
                            templateID: text(at.templateID) ?? "",
                            facilityID: text(at.facilityID) ?? "", areaID: text(at.areaID),
                            assignmentID: text(at.assignmentID),
                            parentLocalID: text(at.parentLocalID), parentServerID: text(at.parentServerID),
                            completedAtDevice: text(at.completedAtDevice), acceptedAt: text(at.acceptedAt) ?? "",
                            revision: page.int(row, at.revision).map { Int($0) } ?? 1,
                            baseRevision: page.int(row, at.baseRevision).map { Int($0) },
                            score: page.double(row, at.score), followUpRequired: page.bool(row, at.flagged) == true,
                            payloadJSON: text(at.payload) ?? "{}", issuesJSON: text(at.issues) ?? "[]",
                            revisionAcceptedAt: text(at.createdAt) ?? "", inspector: text(at.username) ?? "",
                            review: review)
                    report.gradeJSON = text(at.grade)
                    report.facilityName = text(at.facilityName)
                    report.areaName = text(at.areaName)
                    report.inspectorName = text(at.displayName)
                    reports.append(report)
                }
                return (reports, !full)
            }
        } catch {
            throw ServerError.database(error)
        }
        if drained { self.drained = true }
        guard !reports.isEmpty else { return [] }
        if !extras.photos.isEmpty || !extras.issueActions.isEmpty {
            for index in reports.indices {
                if let list = extras.photos[reports[index].serverID] { reports[index].photos = list }
                if let actions = extras.issueActions[reports[index].serverID] { reports[index].issueActions = actions }
            }
        }
        return reports
    }

    /// What a page's reports have in other tables: their photos, and the actions their issues became.
    private struct PageExtras {
        var photos: [String: [StoredPhoto]] = [:]
        var issueActions: [String: [String: ExportedIssueAction]] = [:]

        init() {}

        /// Reads them for the reports `ids` (a JSON array of server ids), in the export's snapshot.
        init(ids: String, issueActions readsActions: Bool, connection: PostgresConnection) throws(PostgresError) {
            let list = "SELECT json_array_elements_text($1::json)"
            for row in try connection.query(
                "SELECT \(SQLRecords.photoColumns) FROM photos WHERE server_id IN (\(list)) ORDER BY server_id, seq",
                [.text(ids)])
            {
                if let photo = SQLRecords.photo(row) { photos[photo.serverID, default: []].append(photo) }
            }
            if readsActions {
                issueActions = ExportStatements.issueActions(
                    try connection.query(ExportStatements.issueActions(ids: list), [.text(ids)]))
            }
        }
    }

    /// A JSON array of strings, written by hand: a page's thousand ids
    /// through `JSONEncoder` cost more than the rest of the page's reading.
    static func jsonArray(_ strings: [String]) -> String {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, string) in strings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    out.append(UInt8(ascii: "\\"))
                    out.append(byte)
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0x0F)])
                default:
                    out.append(byte)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The positions of the export's columns in a page, found by name once per page.
    private struct Columns {
        let serverID, localID, templateID, facilityID, areaID, assignmentID, parentLocalID, parentServerID: Int?
        let completedAtDevice, revision, score, flagged, acceptedAt, reviewState, reviewedRevision, decidedBy: Int?
        let decidedByName, decidedAt, comment, fieldComments, change, baseRevision, payload, issues, grade, createdAt,
            username, facilityName, areaName, displayName: Int?

        init(_ page: PostgresResultView) {
            serverID = page.column("server_id"); localID = page.column("local_id")
            templateID = page.column("template_id"); facilityID = page.column("facility_id")
            areaID = page.column("area_id"); assignmentID = page.column("assignment_id")
            parentLocalID = page.column("parent_local_id"); parentServerID = page.column("parent_server_id")
            completedAtDevice = page.column("completed_at_device"); revision = page.column("current_revision")
            score = page.column("score"); flagged = page.column("flagged"); acceptedAt = page.column("accepted_at")
            reviewState = page.column("review_state"); reviewedRevision = page.column("reviewed_revision")
            decidedBy = page.column("review_decided_by"); decidedByName = page.column("review_decided_by_name")
            decidedAt = page.column("review_decided_at"); comment = page.column("review_comment")
            fieldComments = page.column("review_field_comments"); change = page.column("review_change")
            baseRevision = page.column("base_revision"); payload = page.column("payload");
            issues = page.column("issues"); grade = page.column("grade")
            createdAt = page.column("created_at"); username = page.column("username")
            facilityName = page.column("facility_name"); areaName = page.column("area_name")
            displayName = page.column("display_name")
        }
    }

    func close() {
        guard let connection else { return }
        self.connection = nil
        Self.end(connection, pool: pool)
    }

    /// Rolls the transaction back (closing the cursor) and gives the connection back.
    private static func end(_ connection: PostgresConnection, pool: ConnectionPool) {
        if connection.isHealthy {
            do throws(PostgresError) { try connection.script("ROLLBACK") } catch { _ = error }
        }
        pool.checkIn(connection)
    }

    @discardableResult
    private static func rows(_ connection: PostgresConnection, _ sql: String, _ values: [PostgresValue] = [])
        throws(ServerError) -> [PostgresRow]
    {
        do throws(PostgresError) { return try connection.query(sql, values) } catch {
            throw ServerError.database(error)
        }
    }

    private static func run(_ connection: PostgresConnection, _ sql: String) throws(ServerError) {
        do throws(PostgresError) { try connection.script(sql) } catch { throw ServerError.database(error) }
    }
}
