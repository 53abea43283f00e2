import Foundation
import Models
import PostgreSQL
import ServerCore

/// An export's read of the PostgreSQL store: one pooled connection held
/// for the whole export, a REPEATABLE READ READ ONLY transaction on it (one
/// snapshot), and a cursor over the matching reports in order of review
/// change, fetched a page at a time, so the server holds one page whatever
/// the size. Closing rolls the transaction back (ending the cursor) and
/// gives the connection back; a connection that broke is dropped by the pool.
///
/// Used by one thread at a time (the export's), hence `@unchecked Sendable`.
final class PostgresExportReader: ExportReader, @unchecked Sendable {
    private let pool: ConnectionPool
    private var connection: PostgresConnection?
    private var drained = false
    let generation: String
    let lastChange: Int64
    let matching: Int
    let versions: [PublishedVersion]
    /// Reports one FETCH takes at most.
    static let pageSize = 500

    init(pool: ConnectionPool, query: ExportQuery) throws(ServerError) {
        self.pool = pool
        let connection = try pool.checkOut()
        do throws(ServerError) {
            try Self.run(connection, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            let generation = try Self.rows(connection, "SELECT value FROM settings WHERE key = $1", [.text("server_generation")])
                .first?.string("value") ?? "0"
            let after = try query.position(generation: generation)
            let latest = try Self.rows(connection, "SELECT COALESCE(MAX(review_change), 0) AS latest FROM reports").first?.int("latest") ?? 0
            let versions = try Self.rows(connection, "SELECT template_id, version, published_at, form_schema FROM template_versions").map { row in
                PublishedVersion(templateID: row.string("template_id") ?? "", version: Int(row.int("version") ?? 0),
                                 publishedAt: row.string("published_at") ?? "", schemaJSON: row.string("form_schema") ?? "{}")
            }
            let filters: [PostgresValue] = [.integer(after), query.templateID.map(PostgresValue.text) ?? .null,
                                             query.facilityID.map(PostgresValue.text) ?? .null,
                                             query.reviewState.map { PostgresValue.text($0.rawValue) } ?? .null]
            let matching = try Self.rows(connection, "SELECT COUNT(*) AS matching FROM reports r WHERE " + Self.condition, filters)
                .first?.int("matching") ?? 0
            try Self.rows(connection, """
                DECLARE jqc_export NO SCROLL CURSOR FOR
                SELECT r.server_id, r.local_id, r.owner_id, r.template_id, r.facility_id, r.area_id, r.assignment_id, r.parent_local_id,
                    r.parent_server_id, r.completed_at_device, r.current_revision, r.score, r.follow_up_required, r.follow_up_cleared_by,
                    r.accepted_at, r.review_state, r.reviewed_revision, r.review_decided_by, r.review_decided_by_name, r.review_decided_at,
                    r.review_comment, r.review_field_comments, r.review_change,
                    v.revision, v.base_revision, v.payload, v.issues, v.source, v.created_at, u.username
                FROM reports r
                JOIN report_revisions v ON v.server_id = r.server_id AND v.revision = r.current_revision
                JOIN users u ON u.id = r.owner_id
                WHERE \(Self.condition)
                ORDER BY r.review_change
                """, filters)
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

    /// The export's conditions: after the position, and the filters that are not null.
    private static let condition = """
        r.review_change > $1 AND ($2::text IS NULL OR r.template_id = $2)
            AND ($3::text IS NULL OR r.facility_id = $3) AND ($4::text IS NULL OR r.review_state = $4)
        """

    func nextPage() throws(ServerError) -> [ExportedReport] {
        guard let connection, !drained else { return [] }
        let rows = try Self.rows(connection, "FETCH \(Self.pageSize) FROM jqc_export")
        if rows.count < Self.pageSize { drained = true }
        guard !rows.isEmpty else { return [] }
        let list = CanonicalJSON.string(rows.compactMap { $0.string("server_id") })
        var photos: [String: [StoredPhoto]] = [:]
        for row in try Self.rows(connection, """
            SELECT \(PostgresSession.photoColumns) FROM photos WHERE server_id IN (SELECT json_array_elements_text($1::json))
            ORDER BY server_id, seq
            """, [.text(list)]) {
            if let photo = PostgresSession.photo(row) { photos[photo.serverID, default: []].append(photo) }
        }
        return rows.compactMap { row -> ExportedReport? in
            guard let report = PostgresSession.report(row), let review = PostgresSession.review(row) else { return nil }
            let revision = StoredRevision(revision: Int(row.int("revision") ?? 1), baseRevision: row.int("base_revision").map { Int($0) },
                                          payloadJSON: row.string("payload") ?? "{}", issuesJSON: row.string("issues") ?? "[]",
                                          source: row.string("source") ?? "device")
            return ExportedReport(report: report, revision: revision, revisionAcceptedAt: row.string("created_at") ?? "",
                                  review: review, inspector: row.string("username") ?? "", photos: photos[report.serverID] ?? [])
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
    private static func rows(_ connection: PostgresConnection, _ sql: String, _ values: [PostgresValue] = []) throws(ServerError) -> [PostgresRow] {
        do throws(PostgresError) { return try connection.query(sql, values) } catch { throw ServerError.database(error) }
    }

    private static func run(_ connection: PostgresConnection, _ sql: String) throws(ServerError) {
        do throws(PostgresError) { try connection.script(sql) } catch { throw ServerError.database(error) }
    }
}
