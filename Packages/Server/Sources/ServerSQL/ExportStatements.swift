import ServerStore

/// What both stores' export readers read alike, each through its own
/// connection and snapshot (`rows` runs a statement with `?` placeholders
/// there).
public enum ExportStatements {
    /// The server's generation, which an export's position names; the
    /// first read of an export, so it fixes the snapshot.
    public static func generation<Row: SQLRow>(
        _ rows: (String, [SQLParameter]) throws(ServerError) -> [Row]
    ) throws(ServerError) -> String {
        try rows("SELECT value FROM settings WHERE key = ?", [.text("server_generation")]).first?.text("value") ?? "0"
    }

    /// The latest review change in the snapshot.
    public static func latestChange<Row: SQLRow>(
        _ rows: (String, [SQLParameter]) throws(ServerError) -> [Row]
    ) throws(ServerError) -> Int64 {
        try rows("SELECT COALESCE(MAX(review_change), 0) AS latest FROM reports", []).first?.integer("latest") ?? 0
    }

    /// Every published version of every template.
    public static func versions<Row: SQLRow>(
        _ rows: (String, [SQLParameter]) throws(ServerError) -> [Row]
    ) throws(ServerError) -> [PublishedVersion] {
        try rows("SELECT template_id, version, published_at, form_schema FROM template_versions", [])
            .map { SQLRecords.publishedVersion($0) }
    }

    /// The columns and joins of an exported report, up to its conditions;
    /// `flagged` is how the store words an open follow-up. With `names`, the
    /// names of its site and area (empty for one the server no longer has)
    /// and its inspector's display name too.
    public static func reports(flagged: String, names: Bool = false) -> String {
        """
        SELECT r.server_id, r.local_id, r.template_id, r.facility_id, r.area_id, r.assignment_id, r.parent_local_id,
            r.parent_server_id, r.completed_at_device, r.current_revision, r.score,
            (\(flagged)) AS flagged,
            r.accepted_at, r.review_state, r.reviewed_revision, r.review_decided_by, r.review_decided_by_name,
            r.review_decided_at, r.review_comment, r.review_field_comments, r.review_change,
            v.base_revision, v.payload, v.issues, v.grade, v.created_at, u.username\(names ? nameColumns : "")
        FROM reports r
        JOIN report_revisions v ON v.server_id = r.server_id AND v.revision = r.current_revision
        JOIN users u ON u.id = r.owner_id\(names ? nameJoins : "")
        """
    }

    private static let nameColumns = ",\n    u.display_name, f.name AS facility_name, a.name AS area_name"
    private static let nameJoins = """

        LEFT JOIN facilities f ON f.id = r.facility_id
        LEFT JOIN areas a ON a.id = r.area_id
        """

    /// The conditions of an export (`r` is the report) after the position
    /// `after`, with a `?` for each value, and those values: only the
    /// filters the query gives, each a parameter, never text of the query's.
    public static func conditions(_ query: ExportQuery, after: Int64) -> (sql: String, values: [SQLParameter]) {
        var sql = "r.review_change > ?"
        var values: [SQLParameter] = [.integer(after)]
        func add(_ condition: String, _ value: String?) {
            guard let value else { return }
            sql += " AND " + condition
            values.append(.text(value))
        }
        add("r.template_id = ?", query.templateID)
        add("r.facility_id = ?", query.facilityID)
        add("r.review_state = ?", query.reviewState?.rawValue)
        // `accepted_at` is RFC 3339 UTC with whole seconds, so text order is time order.
        add("r.accepted_at >= ?", query.acceptedFrom)
        add("r.accepted_at < ?", query.acceptedBefore)
        return (sql, values)
    }

    /// The action each issue of some reports became: `ids` is how the store
    /// reads one parameter, a JSON array of server ids, as a column of rows.
    public static func issueActions(ids: String) -> String {
        """
        SELECT report_server_id, issue_local_id, id, state FROM actions
        WHERE issue_local_id IS NOT NULL AND report_server_id IN (\(ids))
        """
    }

    /// The rows `issueActions` read, by report and then by issue (lowercase).
    public static func issueActions<Row: SQLRow>(_ rows: [Row]) -> [String: [String: ExportedIssueAction]] {
        var byReport: [String: [String: ExportedIssueAction]] = [:]
        for row in rows {
            guard let report = row.text("report_server_id"), let issue = row.text("issue_local_id"),
                let id = row.text("id"), let state = row.text("state")
            else { continue }
            byReport[report, default: [:]][issue.lowercased()] = ExportedIssueAction(id: id, state: state)
        }
        return byReport
    }
}
