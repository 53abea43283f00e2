import Foundation
import Models
import PostgreSQL
import ServerStore

/// Facilities, areas, templates and assignments.
extension PostgresSession {
    static func facility(_ row: PostgresRow) -> Facility {
        Facility(
            id: row.string("id") ?? "", name: row.string("name") ?? "", address: row.string("address") ?? "",
            projectName: row.string("project_name") ?? "")
    }

    static func area(_ row: PostgresRow) -> Area {
        Area(
            id: row.string("id") ?? "", facilityID: row.string("facility_id") ?? "", name: row.string("name") ?? "",
            areaType: row.string("area_type") ?? "")
    }

    /// The template a row holds; nil when its stored schema no longer decodes.
    static func template(_ row: PostgresRow) -> Template? {
        guard let id = row.string("id"), let name = row.string("name"), let text = row.string("form_schema"),
            let raw = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        else { return nil }
        let json: JSONValue = .object([
            "id": .string(id), "name": .string(name),
            "version": .integer(row.int("version") ?? 1), "form_schema": raw,
        ])
        guard case .success(let template) = Template.decode(json) else { return nil }
        return template
    }

    func facilities() throws(ServerError) -> [Facility] {
        try query(
            "SELECT id, name, address, project_name FROM facilities WHERE retired_at IS NULL ORDER BY position, id"
        )
        .map(Self.facility)
    }

    func facilityExists(_ id: String) throws(ServerError) -> Bool {
        try !query("SELECT 1 AS found FROM facilities WHERE id = $1 AND retired_at IS NULL", [.text(id)]).isEmpty
    }

    func areas(facilityID: String) throws(ServerError) -> [Area] {
        try query(
            """
            SELECT id, facility_id, name, area_type FROM areas WHERE facility_id = $1 AND retired_at IS NULL ORDER BY position, id
            """, [.text(facilityID)]
        ).map(Self.area)
    }

    func area(id: String) throws(ServerError) -> Area? {
        try query("SELECT id, facility_id, name, area_type FROM areas WHERE id = $1", [.text(id)]).first.map(Self.area)
    }

    func templates() throws(ServerError) -> [Template] {
        try query("SELECT id, name, version, form_schema FROM templates WHERE retired_at IS NULL ORDER BY position, id")
            .compactMap(Self.template)
    }

    func template(id: String) throws(ServerError) -> Template? {
        try query("SELECT id, name, version, form_schema FROM templates WHERE id = $1", [.text(id)]).first.flatMap(
            Self.template)
    }

    func templateVersion(id: String, version: Int) throws(ServerError) -> Template? {
        try query(
            "SELECT template_id AS id, name, version, form_schema FROM template_versions WHERE template_id = $1 AND version = $2",
            [.text(id), .integer(Int64(version))]
        ).first.flatMap(Self.template)
    }

    func insertFacility(_ facility: Facility, position: Int) throws(ServerError) {
        try query(
            """
            INSERT INTO facilities (id, name, address, project_name, position) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, address = excluded.address,
                project_name = excluded.project_name
            """,
            [
                .text(facility.id), .text(facility.name), .text(facility.address), .text(facility.projectName),
                .integer(Int64(position)),
            ])
    }

    func insertArea(_ area: Area, position: Int) throws(ServerError) {
        try query(
            """
            INSERT INTO areas (id, facility_id, name, area_type, position) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (id) DO UPDATE SET facility_id = excluded.facility_id, name = excluded.name,
                area_type = excluded.area_type
            """,
            [.text(area.id), .text(area.facilityID), .text(area.name), .text(area.areaType), .integer(Int64(position))])
    }

    func insertTemplate(_ template: Template, position: Int) throws(ServerError) {
        try storeTemplate(template, position: position, publishedBy: "import", now: Date())
    }

    func publishTemplate(_ template: Template, publishedBy: String, now: Date) throws(ServerError) {
        let count = try query("SELECT COUNT(*) AS n FROM templates").first?.int("n") ?? 0
        try storeTemplate(template, position: Int(count), publishedBy: publishedBy, now: now)
    }

    /// Makes `template` current, keeps it among the published versions, and bumps the template revision.
    private func storeTemplate(_ template: Template, position: Int, publishedBy: String, now: Date) throws(ServerError)
    {
        let schema = CanonicalJSON.string(template.rawSchema)
        try query(
            """
            INSERT INTO templates (id, name, version, form_schema, position) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, version = excluded.version, form_schema = excluded.form_schema
            """,
            [
                .text(template.id), .text(template.name), .integer(Int64(template.version)), .text(schema),
                .integer(Int64(position)),
            ])
        try query(
            """
            INSERT INTO template_versions (template_id, version, name, form_schema, published_at, published_by)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (template_id, version) DO UPDATE SET name = excluded.name, form_schema = excluded.form_schema
            """,
            [
                .text(template.id), .integer(Int64(template.version)), .text(template.name), .text(schema),
                .text(RFC3339.string(now)), .text(publishedBy),
            ])
        try bumpTemplateRevision()
    }

    func bumpTemplateRevision() throws(ServerError) {
        try query("UPDATE counters SET value = value + 1 WHERE name = 'templates'")
    }

    func templateRevision() throws(ServerError) -> Int64 {
        try query("SELECT value FROM counters WHERE name = 'templates'").first?.int("value") ?? 0
    }

    // MARK: Assignments

    /// The next change number: the counter row stays locked until commit, so
    /// changes commit in the order of their numbers and a cursor skips none.
    func nextChangeSequence() throws(ServerError) -> Int64 {
        try query("UPDATE counters SET value = value + 1 WHERE name = 'assignments' RETURNING value").first?.int(
            "value") ?? 0
    }

    func insertAssignment(_ assignment: Assignment, inspectorID: String) throws(ServerError) {
        let seq = try nextChangeSequence()
        try query(
            """
            INSERT INTO assignments (id, inspector_id, template_id, facility_id, area_id, due_at, status, change_seq)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
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

    func assignments(inspectorID: String?, since: Int64?) throws(ServerError) -> ([Assignment], Int64) {
        var sql = "SELECT id, template_id, facility_id, area_id, due_at, status FROM assignments WHERE true"
        var arguments: [PostgresValue] = []
        if let inspectorID {
            arguments.append(.text(inspectorID))
            sql += " AND inspector_id = $\(arguments.count)"
        }
        if let since {
            arguments.append(.integer(since))
            sql += " AND change_seq > $\(arguments.count)"
        } else {
            sql += " AND status = 'open'"
        }
        sql += " ORDER BY due_at IS NULL, due_at, id"
        let rows = try query(sql, arguments)
        let latest = try query("SELECT value FROM counters WHERE name = 'assignments'").first?.int("value") ?? 0
        let list = rows.map { row in
            Assignment(
                id: row.string("id") ?? "", templateID: row.string("template_id") ?? "",
                facilityID: row.string("facility_id") ?? "", areaID: row.string("area_id"), dueAt: row.string("due_at"),
                status: AssignmentStatus(rawValue: row.string("status") ?? "open") ?? .open)
        }
        return (list, max(latest, since ?? 0))
    }

    func closeAssignment(id: String, inspectorID: String) throws(ServerError) {
        let open = try query(
            "SELECT 1 AS found FROM assignments WHERE id = $1 AND inspector_id = $2 AND status = 'open' FOR UPDATE",
            [.text(id), .text(inspectorID)])
        guard !open.isEmpty else { return }
        let seq = try nextChangeSequence()
        try query(
            "UPDATE assignments SET status = 'closed', change_seq = $1 WHERE id = $2 AND inspector_id = $3 AND status = 'open'",
            [.integer(seq), .text(id), .text(inspectorID)])
    }
}
