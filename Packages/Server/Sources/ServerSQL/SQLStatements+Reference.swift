import Foundation
import Models
import ServerStore

/// Facilities, areas, templates and assignments.
extension SQLStatements {
    public func facilities() throws(ServerError) -> [Facility] {
        try rows(
            "SELECT id, name, address, project_name FROM facilities WHERE retired_at IS NULL ORDER BY position, id"
        )
        .map { SQLRecords.facility($0) }
    }

    public func facilityExists(_ id: String) throws(ServerError) -> Bool {
        try firstRow("SELECT 1 AS found FROM facilities WHERE id = ? AND retired_at IS NULL", [.text(id)]) != nil
    }

    public func areas(facilityID: String) throws(ServerError) -> [Area] {
        try rows(
            """
            SELECT id, facility_id, name, area_type FROM areas WHERE facility_id = ? AND retired_at IS NULL
            ORDER BY position, id
            """, [.text(facilityID)]
        ).map { SQLRecords.area($0) }
    }

    public func area(id: String) throws(ServerError) -> Area? {
        try firstRow("SELECT id, facility_id, name, area_type FROM areas WHERE id = ?", [.text(id)])
            .map { SQLRecords.area($0) }
    }

    public func templates() throws(ServerError) -> [Template] {
        try rows(
            "SELECT id, name, version, form_schema, pass_threshold FROM templates WHERE retired_at IS NULL ORDER BY position, id"
        )
        .compactMap { SQLRecords.template($0) }
    }

    public func template(id: String) throws(ServerError) -> Template? {
        try firstRow("SELECT id, name, version, form_schema, pass_threshold FROM templates WHERE id = ?", [.text(id)])
            .flatMap { SQLRecords.template($0) }
    }

    public func templateVersion(id: String, version: Int) throws(ServerError) -> Template? {
        try firstRow(
            """
            SELECT template_id AS id, name, version, form_schema, pass_threshold FROM template_versions
            WHERE template_id = ? AND version = ?
            """,
            [.text(id), .count(version)]
        ).flatMap { SQLRecords.template($0) }
    }

    // An update keeps the row (and its place in the list, and whether it is
    // retired): the areas, assignments and reports that name it stay linked.
    public func insertFacility(_ facility: Facility, position: Int) throws(ServerError) {
        try run(
            """
            INSERT INTO facilities (id, name, address, project_name, position) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, address = excluded.address,
                project_name = excluded.project_name
            """,
            [
                .text(facility.id), .text(facility.name), .text(facility.address), .text(facility.projectName),
                .count(position),
            ])
    }

    public func insertArea(_ area: Area, position: Int) throws(ServerError) {
        try run(
            """
            INSERT INTO areas (id, facility_id, name, area_type, position) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET facility_id = excluded.facility_id, name = excluded.name,
                area_type = excluded.area_type
            """, [.text(area.id), .text(area.facilityID), .text(area.name), .text(area.areaType), .count(position)])
    }

    public func insertTemplate(_ template: Template, position: Int) throws(ServerError) {
        try storeTemplate(template, position: position, publishedBy: "import", now: Date())
    }

    public func publishTemplate(_ template: Template, publishedBy: String, now: Date) throws(ServerError) {
        let count = try firstRow("SELECT COUNT(*) AS n FROM templates")?.integer("n") ?? 0
        try storeTemplate(template, position: Int(count), publishedBy: publishedBy, now: now)
    }

    /// Makes `template` current, keeps it among the published versions, and bumps the template revision.
    private func storeTemplate(_ template: Template, position: Int, publishedBy: String, now: Date) throws(ServerError)
    {
        let schema = CanonicalJSON.string(template.rawSchema)
        try run(
            """
            INSERT INTO templates (id, name, version, form_schema, pass_threshold, position) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, version = excluded.version,
                form_schema = excluded.form_schema, pass_threshold = excluded.pass_threshold
            """,
            [
                .text(template.id), .text(template.name), .count(template.version), .text(schema),
                .optional(template.passThreshold), .count(position),
            ])
        try run(
            """
            INSERT INTO template_versions
                (template_id, version, name, form_schema, pass_threshold, published_at, published_by)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (template_id, version) DO UPDATE SET name = excluded.name, form_schema = excluded.form_schema,
                pass_threshold = excluded.pass_threshold
            """,
            [
                .text(template.id), .count(template.version), .text(template.name), .text(schema),
                .optional(template.passThreshold), .stamp(now), .text(publishedBy),
            ])
        try bumpTemplateRevision()
    }

    // MARK: Assignments

    public func insertAssignment(_ assignment: Assignment, inspectorID: String) throws(ServerError) {
        let seq = try nextChangeSequence()
        try run(
            """
            INSERT INTO assignments (id, inspector_id, template_id, facility_id, area_id, due_at, status, change_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET inspector_id = excluded.inspector_id, template_id = excluded.template_id,
                facility_id = excluded.facility_id, area_id = excluded.area_id, due_at = excluded.due_at,
                status = excluded.status, change_seq = excluded.change_seq
            """,
            [
                .text(assignment.id), .text(inspectorID), .text(assignment.templateID), .text(assignment.facilityID),
                .optional(assignment.areaID), .optional(assignment.dueAt), .text(assignment.status.rawValue),
                .integer(seq),
            ])
    }

    public func assignments(inspectorID: String?, since: Int64?) throws(ServerError) -> ([Assignment], Int64) {
        var sql = "SELECT id, template_id, facility_id, area_id, due_at, status FROM assignments WHERE 1 = 1"
        var arguments: [SQLParameter] = []
        if let inspectorID {
            sql += " AND inspector_id = ?"
            arguments.append(.text(inspectorID))
        }
        if let since {
            sql += " AND change_seq > ?"
            arguments.append(.integer(since))
        } else {
            sql += " AND status = 'open'"
        }
        sql += " ORDER BY due_at IS NULL, due_at, id"
        let list = try rows(sql, arguments).map { SQLRecords.assignment($0) }
        let latest = try latestChangeSequence()
        return (list, max(latest, since ?? 0))
    }
}
