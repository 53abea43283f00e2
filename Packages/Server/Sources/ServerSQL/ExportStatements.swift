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
    /// `flagged` is how the store words an open follow-up.
    public static func reports(flagged: String) -> String {
        """
        SELECT r.server_id, r.local_id, r.template_id, r.facility_id, r.area_id, r.assignment_id, r.parent_local_id,
            r.parent_server_id, r.completed_at_device, r.current_revision, r.score,
            (\(flagged)) AS flagged,
            r.accepted_at, r.review_state, r.reviewed_revision, r.review_decided_by, r.review_decided_by_name,
            r.review_decided_at, r.review_comment, r.review_field_comments, r.review_change,
            v.base_revision, v.payload, v.issues, v.grade, v.created_at, u.username
        FROM reports r
        JOIN report_revisions v ON v.server_id = r.server_id AND v.revision = r.current_revision
        JOIN users u ON u.id = r.owner_id
        """
    }
}
