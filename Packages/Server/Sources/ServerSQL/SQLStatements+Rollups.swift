import ServerStore

/// Roll-ups of grades: the sums of each group of reports received in a
/// window, read from the reports' own grade columns (and, by item, from the
/// deficiencies kept a row each), with the window on `accepted_at`'s index.
extension SQLStatements {
    public func gradeRollup(_ query: RollupQuery) throws(ServerError) -> [RollupSums] {
        if query.by == .item { return try itemRollup(query) }
        let key: String
        var join = ""
        switch query.by {
        case .site: key = "r.facility_id"
        case .area: key = "COALESCE(r.area_id, '')"
        case .areaType:
            key = "COALESCE(a.area_type, '')"
            join = " LEFT JOIN areas a ON a.id = r.area_id"
        case .inspector: key = "r.owner_id"
        case .template, .item: key = "r.template_id"
        }
        let (conditions, values) = Self.window(query, alias: "r")
        return try rows(
            """
            SELECT \(key) AS k, COUNT(*) AS n, COUNT(r.score) AS scored, SUM(r.score) AS score_sum,
                COUNT(r.passed) AS graded, SUM(CASE WHEN r.passed THEN 1 ELSE 0 END) AS passed,
                SUM(r.deficiency_count) AS deficiencies
            FROM reports r\(join) WHERE \(conditions) GROUP BY \(key)
            """, values
        ).map { row in
            RollupSums(
                key: row.text("k") ?? "", inspections: Self.count(row, "n"), scored: Self.count(row, "scored"),
                scoreSum: row.real("score_sum") ?? 0, graded: Self.count(row, "graded"),
                passed: Self.count(row, "passed"), deficiencies: Self.count(row, "deficiencies"))
        }
    }

    /// By item: how often each field of each template was deficient, beside
    /// how many reports of its template were received.
    private func itemRollup(_ query: RollupQuery) throws(ServerError) -> [RollupSums] {
        var byTemplate = query
        byTemplate.by = .template
        let inspections = Dictionary(
            try gradeRollup(byTemplate).map { ($0.key, $0.inspections) }, uniquingKeysWith: { a, _ in a })
        let (conditions, values) = Self.window(query, alias: "d")
        return try rows(
            """
            SELECT d.template_id AS k, d.field_id AS field, COUNT(*) AS deficiencies
            FROM report_deficiencies d WHERE \(conditions) GROUP BY d.template_id, d.field_id
            """, values
        ).map { row in
            let template = row.text("k") ?? ""
            return RollupSums(
                key: template, field: row.text("field"), inspections: inspections[template] ?? 0, scored: 0,
                scoreSum: 0, graded: 0, passed: 0, deficiencies: Self.count(row, "deficiencies"))
        }
    }

    public func ungradedReports(limit: Int) throws(ServerError) -> [UngradedReport] {
        try rows(
            """
            SELECT r.server_id AS server_id, r.template_id AS template_id, r.current_revision AS revision,
                r.score AS score, v.payload AS payload
            FROM reports r JOIN report_revisions v ON v.server_id = r.server_id AND v.revision = r.current_revision
            WHERE v.grade IS NULL LIMIT ?
            """, [.count(limit)]
        ).map { row in
            UngradedReport(
                serverID: row.text("server_id") ?? "", templateID: row.text("template_id") ?? "",
                revision: Int(row.integer("revision") ?? 1), payloadJSON: row.text("payload") ?? "{}",
                score: row.real("score"))
        }
    }

    public func setGrade(serverID: String, revision: Int, _ grade: ReportGrade) throws(ServerError) {
        try run(
            "UPDATE report_revisions SET grade = ? WHERE server_id = ? AND revision = ?",
            [.text(grade.json), .text(serverID), .count(revision)])
        try run(
            "UPDATE reports SET score = ?, passed = ?, deficiency_count = ? WHERE server_id = ? AND current_revision = ?",
            [
                .optional(grade.score), .optional(grade.passed), .count(grade.deficiencies.count), .text(serverID),
                .count(revision),
            ])
        try keepDeficiencies(serverID: serverID, grade.deficiencies)
    }

    /// Keeps a report's deficiencies a row each, as its current revision has them.
    public func keepDeficiencies(serverID: String, _ deficiencies: [String]) throws(ServerError) {
        try run("DELETE FROM report_deficiencies WHERE server_id = ?", [.text(serverID)])
        for field in deficiencies {
            try run(
                """
                INSERT INTO report_deficiencies (server_id, field_id, template_id, facility_id, accepted_at)
                SELECT server_id, ?, template_id, facility_id, accepted_at FROM reports WHERE server_id = ?
                """, [.text(field), .text(serverID)])
        }
    }

    /// The window and the narrowing of a query, on the table aliased `alias`.
    private static func window(_ query: RollupQuery, alias: String) -> (String, [SQLParameter]) {
        var conditions = ["\(alias).accepted_at >= ?", "\(alias).accepted_at < ?"]
        var values: [SQLParameter] = [.text(query.from), .text(query.to)]
        if let facility = query.facilityID {
            conditions.append("\(alias).facility_id = ?")
            values.append(.text(facility))
        }
        if let template = query.templateID {
            conditions.append("\(alias).template_id = ?")
            values.append(.text(template))
        }
        if alias == "r", let states = query.reviewStates {
            conditions.append(
                "r.review_state IN (\(Array(repeating: "?", count: max(states.count, 1)).joined(separator: ", ")))")
            values += states.isEmpty ? [.text("")] : states.map { .text($0.rawValue) }
        }
        return (conditions.joined(separator: " AND "), values)
    }

    private static func count(_ row: ResultRow, _ column: String) -> Int { Int(row.integer(column) ?? 0) }
}
