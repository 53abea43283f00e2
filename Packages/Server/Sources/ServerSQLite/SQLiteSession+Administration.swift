import Foundation
import Models
import ServerStore
import SQLite

/// What admins manage: every site, template, assignment and user, retired
/// ones included, and the log of who changed what.
extension SQLiteSession {
    func managedFacilities() throws(ServerError) -> [ManagedFacility] {
        try db.query("SELECT id, name, address, project_name, retired_at FROM facilities ORDER BY position, id").map {
            row in
            ManagedFacility(facility: Self.facility(row), retiredAt: row.text("retired_at"))
        }
    }

    func managedFacility(id: String) throws(ServerError) -> ManagedFacility? {
        try db.query("SELECT id, name, address, project_name, retired_at FROM facilities WHERE id = ?", [.text(id)])
            .first.map { row in
                ManagedFacility(facility: Self.facility(row), retiredAt: row.text("retired_at"))
            }
    }

    func setFacilityRetired(id: String, at: String?) throws(ServerError) {
        try db.update("UPDATE facilities SET retired_at = ? WHERE id = ?", [.optional(at), .text(id)])
    }

    func managedAreas(facilityID: String?) throws(ServerError) -> [ManagedArea] {
        let filter = facilityID == nil ? "" : "WHERE facility_id = ?"
        return try db.query(
            "SELECT id, facility_id, name, area_type, retired_at FROM areas \(filter) ORDER BY facility_id, position, id",
            facilityID.map { [SQLValue.text($0)] } ?? []
        ).map { row in
            ManagedArea(area: Self.area(row), retiredAt: row.text("retired_at"))
        }
    }

    func setAreaRetired(id: String, at: String?) throws(ServerError) {
        try db.update("UPDATE areas SET retired_at = ? WHERE id = ?", [.optional(at), .text(id)])
    }

    func managedTemplates() throws(ServerError) -> [ManagedTemplate] {
        var versions: [String: [Int]] = [:]
        for row in try db.query("SELECT template_id, version FROM template_versions ORDER BY template_id, version") {
            versions[row.text("template_id") ?? "", default: []].append(Int(row.integer("version") ?? 0))
        }
        return try db.query("SELECT id, name, version, form_schema, retired_at FROM templates ORDER BY position, id")
            .compactMap { row in
                guard let template = Self.template(row) else { return nil }
                return ManagedTemplate(
                    template: template, versions: versions[template.id] ?? [template.version],
                    retiredAt: row.text("retired_at"))
            }
    }

    func setTemplateRetired(id: String, at: String?) throws(ServerError) {
        try db.update("UPDATE templates SET retired_at = ? WHERE id = ?", [.optional(at), .text(id)])
        try bumpTemplateRevision()
    }

    private static let assignmentColumns =
        "id, inspector_id, template_id, facility_id, area_id, due_at, status, cancelled_at"

    private static func managedAssignment(_ row: Row) -> ManagedAssignment {
        ManagedAssignment(
            assignment: Assignment(
                id: row.text("id") ?? "", templateID: row.text("template_id") ?? "",
                facilityID: row.text("facility_id") ?? "", areaID: row.text("area_id"),
                dueAt: row.text("due_at"), status: AssignmentStatus(rawValue: row.text("status") ?? "open") ?? .open),
            inspectorID: row.text("inspector_id") ?? "", cancelledAt: row.text("cancelled_at"))
    }

    func managedAssignments(inspectorID: String?) throws(ServerError) -> [ManagedAssignment] {
        let filter = inspectorID == nil ? "" : "WHERE inspector_id = ?"
        return try db.query(
            "SELECT \(Self.assignmentColumns) FROM assignments \(filter) ORDER BY due_at IS NULL, due_at, id",
            inspectorID.map { [SQLValue.text($0)] } ?? []
        ).map(Self.managedAssignment)
    }

    func managedAssignment(id: String) throws(ServerError) -> ManagedAssignment? {
        try db.query("SELECT \(Self.assignmentColumns) FROM assignments WHERE id = ?", [.text(id)]).first.map(
            Self.managedAssignment)
    }

    func cancelAssignment(id: String, at: String) throws(ServerError) {
        let seq = try latestChangeSequence() + 1
        try db.update(
            "UPDATE assignments SET status = 'closed', cancelled_at = ?, change_seq = ? WHERE id = ? AND cancelled_at IS NULL",
            [.text(at), .integer(seq), .text(id)])
    }

    func recordAdminEvent(_ event: AdminEvent) throws(ServerError) {
        try db.update(
            "INSERT INTO admin_events (at, actor_id, actor_name, kind, subject, detail) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(event.at), .text(event.actorID), .text(event.actorName), .text(event.kind), .text(event.subject),
                .text(CanonicalJSON.string(event.detail)),
            ])
    }

    func adminEvents(limit: Int, before: Int64?) throws(ServerError) -> [AdminEvent] {
        let rows = try db.query(
            """
            SELECT seq, at, actor_id, actor_name, kind, subject, detail FROM admin_events WHERE seq < ? ORDER BY seq DESC LIMIT ?
            """, [.integer(before ?? Int64.max), .integer(Int64(limit))])
        return rows.reversed().map { row in
            AdminEvent(
                sequence: row.integer("seq") ?? 0, at: row.text("at") ?? "", actorID: row.text("actor_id") ?? "",
                actorName: row.text("actor_name") ?? "", kind: row.text("kind") ?? "",
                subject: row.text("subject") ?? "",
                detail: (try? JSONDecoder().decode(JSONValue.self, from: Data((row.text("detail") ?? "{}").utf8)))
                    ?? .null)
        }
    }
}
