import Foundation
import Models
import ServerStore
import SQLite

/// Facilities, areas, templates and assignments.
extension SQLiteSession {
    static func facility(_ row: Row) -> Facility {
        Facility(
            id: row.text("id") ?? "", name: row.text("name") ?? "", address: row.text("address") ?? "",
            projectName: row.text("project_name") ?? "")
    }

    static func area(_ row: Row) -> Area {
        Area(
            id: row.text("id") ?? "", facilityID: row.text("facility_id") ?? "", name: row.text("name") ?? "",
            areaType: row.text("area_type") ?? "")
    }

    /// The template a row holds; nil when its stored schema no longer decodes.
    static func template(_ row: Row) -> Template? {
        guard let id = row.text("id"), let name = row.text("name"), let text = row.text("form_schema"),
            let raw = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        else { return nil }
        let json: JSONValue = .object([
            "id": .string(id), "name": .string(name),
            "version": .integer(row.integer("version") ?? 1), "form_schema": raw,
        ])
        guard case .success(let template) = Template.decode(json) else { return nil }
        return template
    }

    func facilities() throws(ServerError) -> [Facility] {
        try db.query(
            "SELECT id, name, address, project_name FROM facilities WHERE retired_at IS NULL ORDER BY position, id"
        )
        .map(Self.facility)
    }

    func facilityExists(_ id: String) throws(ServerError) -> Bool {
        try !db.query("SELECT 1 AS found FROM facilities WHERE id = ? AND retired_at IS NULL", [.text(id)]).isEmpty
    }

    func areas(facilityID: String) throws(ServerError) -> [Area] {
        try db.query(
            """
            SELECT id, facility_id, name, area_type FROM areas WHERE facility_id = ? AND retired_at IS NULL ORDER BY position, id
            """, [.text(facilityID)]
        ).map(Self.area)
    }

    func area(id: String) throws(ServerError) -> Area? {
        try db.query("SELECT id, facility_id, name, area_type FROM areas WHERE id = ?", [.text(id)]).first.map(
            Self.area)
    }

    func templates() throws(ServerError) -> [Template] {
        try db.query(
            "SELECT id, name, version, form_schema FROM templates WHERE retired_at IS NULL ORDER BY position, id"
        )
        .compactMap(Self.template)
    }

    func template(id: String) throws(ServerError) -> Template? {
        try db.query("SELECT id, name, version, form_schema FROM templates WHERE id = ?", [.text(id)]).first.flatMap(
            Self.template)
    }

    func templateVersion(id: String, version: Int) throws(ServerError) -> Template? {
        try db.query(
            "SELECT template_id AS id, name, version, form_schema FROM template_versions WHERE template_id = ? AND version = ?",
            [.text(id), .integer(Int64(version))]
        ).first.flatMap(Self.template)
    }

    // An update keeps the row (and its place in the list, and whether it is
    // retired): the areas, assignments and reports that name it stay linked.
    func insertFacility(_ facility: Facility, position: Int) throws(ServerError) {
        try db.update(
            """
            INSERT INTO facilities (id, name, address, project_name, position) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET name = excluded.name, address = excluded.address, project_name = excluded.project_name
            """,
            [
                .text(facility.id), .text(facility.name), .text(facility.address), .text(facility.projectName),
                .integer(Int64(position)),
            ])
    }

    func insertArea(_ area: Area, position: Int) throws(ServerError) {
        try db.update(
            """
            INSERT INTO areas (id, facility_id, name, area_type, position) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET facility_id = excluded.facility_id, name = excluded.name, area_type = excluded.area_type
            """,
            [.text(area.id), .text(area.facilityID), .text(area.name), .text(area.areaType), .integer(Int64(position))])
    }

    func insertTemplate(_ template: Template, position: Int) throws(ServerError) {
        try storeTemplate(template, position: position, publishedBy: "import", now: Date())
    }

    func publishTemplate(_ template: Template, publishedBy: String, now: Date) throws(ServerError) {
        let count = try db.query("SELECT COUNT(*) AS n FROM templates").first?.integer("n") ?? 0
        try storeTemplate(template, position: Int(count), publishedBy: publishedBy, now: now)
    }

    /// Makes `template` current, keeps it among the published versions, and bumps the template revision.
    private func storeTemplate(_ template: Template, position: Int, publishedBy: String, now: Date) throws(ServerError)
    {
        let schema = CanonicalJSON.string(template.rawSchema)
        try db.update(
            """
            INSERT INTO templates (id, name, version, form_schema, position) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET name = excluded.name, version = excluded.version, form_schema = excluded.form_schema
            """,
            [
                .text(template.id), .text(template.name), .integer(Int64(template.version)), .text(schema),
                .integer(Int64(position)),
            ])
        try db.update(
            """
            INSERT INTO template_versions (template_id, version, name, form_schema, published_at, published_by)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(template_id, version) DO UPDATE SET name = excluded.name, form_schema = excluded.form_schema
            """,
            [
                .text(template.id), .integer(Int64(template.version)), .text(template.name), .text(schema),
                .text(RFC3339.string(now)), .text(publishedBy),
            ])
        try bumpTemplateRevision()
    }

    func bumpTemplateRevision() throws(ServerError) {
        try db.update(
            """
            INSERT INTO settings (key, value) VALUES (?, '1')
            ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)
            """, [.text(Self.templateRevisionKey)])
    }

    private static let templateRevisionKey = "templates_revision"

    func templateRevision() throws(ServerError) -> Int64 {
        Int64(try setting(Self.templateRevisionKey) ?? "0") ?? 0
    }

    // MARK: Assignments

    func latestChangeSequence() throws(ServerError) -> Int64 {
        try db.query("SELECT COALESCE(MAX(change_seq), 0) AS latest FROM assignments").first?.integer("latest") ?? 0
    }

    func insertAssignment(_ assignment: Assignment, inspectorID: String) throws(ServerError) {
        let seq = try latestChangeSequence() + 1
        try db.update(
            """
            INSERT INTO assignments (id, inspector_id, template_id, facility_id, area_id, due_at, status, change_seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET inspector_id = excluded.inspector_id, template_id = excluded.template_id,
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
        var sql = "SELECT id, template_id, facility_id, area_id, due_at, status FROM assignments WHERE 1 = 1"
        var arguments: [SQLValue] = []
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
        let rows = try db.query(sql, arguments)
        let latest = try latestChangeSequence()
        let list = rows.map { row in
            Assignment(
                id: row.text("id") ?? "", templateID: row.text("template_id") ?? "",
                facilityID: row.text("facility_id") ?? "", areaID: row.text("area_id"), dueAt: row.text("due_at"),
                status: AssignmentStatus(rawValue: row.text("status") ?? "open") ?? .open)
        }
        return (list, max(latest, since ?? 0))
    }

    func closeAssignment(id: String, inspectorID: String) throws(ServerError) {
        let seq = try latestChangeSequence() + 1
        try db.update(
            "UPDATE assignments SET status = 'closed', change_seq = ? WHERE id = ? AND inspector_id = ? AND status = 'open'",
            [.integer(seq), .text(id), .text(inspectorID)])
    }
}
