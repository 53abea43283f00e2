import Foundation
import Models
import PostgreSQL
import ServerStore

/// What admins manage: every site, template, assignment and user, retired
/// ones included, and the log of who changed what.
extension PostgresSession {
    func managedFacilities() throws(ServerError) -> [ManagedFacility] {
        try query("SELECT id, name, address, project_name, retired_at FROM facilities ORDER BY position, id").map {
            row in
            ManagedFacility(facility: Self.facility(row), retiredAt: row.string("retired_at"))
        }
    }

    func managedFacility(id: String) throws(ServerError) -> ManagedFacility? {
        try query("SELECT id, name, address, project_name, retired_at FROM facilities WHERE id = $1", [.text(id)]).first
            .map { row in
                ManagedFacility(facility: Self.facility(row), retiredAt: row.string("retired_at"))
            }
    }

    func setFacilityRetired(id: String, at: String?) throws(ServerError) {
        try query("UPDATE facilities SET retired_at = $1 WHERE id = $2", [.optional(at), .text(id)])
    }

    func managedAreas(facilityID: String?) throws(ServerError) -> [ManagedArea] {
        let filter = facilityID == nil ? "" : "WHERE facility_id = $1"
        return try query(
            "SELECT id, facility_id, name, area_type, retired_at FROM areas \(filter) ORDER BY facility_id, position, id",
            facilityID.map { [PostgresValue.text($0)] } ?? []
        ).map { row in
            ManagedArea(area: Self.area(row), retiredAt: row.string("retired_at"))
        }
    }

    func setAreaRetired(id: String, at: String?) throws(ServerError) {
        try query("UPDATE areas SET retired_at = $1 WHERE id = $2", [.optional(at), .text(id)])
    }

    func managedTemplates() throws(ServerError) -> [ManagedTemplate] {
        var versions: [String: [Int]] = [:]
        for row in try query("SELECT template_id, version FROM template_versions ORDER BY template_id, version") {
            versions[row.string("template_id") ?? "", default: []].append(Int(row.int("version") ?? 0))
        }
        return try query("SELECT id, name, version, form_schema, retired_at FROM templates ORDER BY position, id")
            .compactMap { row in
                guard let template = Self.template(row) else { return nil }
                return ManagedTemplate(
                    template: template, versions: versions[template.id] ?? [template.version],
                    retiredAt: row.string("retired_at"))
            }
    }

    func setTemplateRetired(id: String, at: String?) throws(ServerError) {
        try query("UPDATE templates SET retired_at = $1 WHERE id = $2", [.optional(at), .text(id)])
        try bumpTemplateRevision()
    }

    private static let assignmentColumns =
        "id, inspector_id, template_id, facility_id, area_id, due_at, status, cancelled_at"

    private static func managedAssignment(_ row: PostgresRow) -> ManagedAssignment {
        ManagedAssignment(
            assignment: Assignment(
                id: row.string("id") ?? "", templateID: row.string("template_id") ?? "",
                facilityID: row.string("facility_id") ?? "", areaID: row.string("area_id"),
                dueAt: row.string("due_at"), status: AssignmentStatus(rawValue: row.string("status") ?? "open") ?? .open
            ),
            inspectorID: row.string("inspector_id") ?? "", cancelledAt: row.string("cancelled_at"))
    }

    func managedAssignments(inspectorID: String?) throws(ServerError) -> [ManagedAssignment] {
        let filter = inspectorID == nil ? "" : "WHERE inspector_id = $1"
        return try query(
            "SELECT \(Self.assignmentColumns) FROM assignments \(filter) ORDER BY due_at IS NULL, due_at, id",
            inspectorID.map { [PostgresValue.text($0)] } ?? []
        ).map(Self.managedAssignment)
    }

    func managedAssignment(id: String) throws(ServerError) -> ManagedAssignment? {
        try query("SELECT \(Self.assignmentColumns) FROM assignments WHERE id = $1", [.text(id)]).first.map(
            Self.managedAssignment)
    }

    func cancelAssignment(id: String, at: String) throws(ServerError) {
        let open = try query(
            "SELECT 1 AS found FROM assignments WHERE id = $1 AND cancelled_at IS NULL FOR UPDATE", [.text(id)])
        guard !open.isEmpty else { return }
        let seq = try nextChangeSequence()
        try query(
            "UPDATE assignments SET status = 'closed', cancelled_at = $1, change_seq = $2 WHERE id = $3",
            [.text(at), .integer(seq), .text(id)])
    }

    func recordAdminEvent(_ event: AdminEvent) throws(ServerError) {
        try query(
            "INSERT INTO admin_events (at, actor_id, actor_name, kind, subject, detail) VALUES ($1, $2, $3, $4, $5, $6)",
            [
                .text(event.at), .text(event.actorID), .text(event.actorName), .text(event.kind), .text(event.subject),
                .text(CanonicalJSON.string(event.detail)),
            ])
    }

    func adminEvents(limit: Int, before: Int64?) throws(ServerError) -> [AdminEvent] {
        let rows = try query(
            """
            SELECT seq, at, actor_id, actor_name, kind, subject, detail FROM admin_events WHERE seq < $1 ORDER BY seq DESC LIMIT $2
            """, [.integer(before ?? Int64.max), .integer(Int64(limit))])
        return rows.reversed().map { row in
            AdminEvent(
                sequence: row.int("seq") ?? 0, at: row.string("at") ?? "", actorID: row.string("actor_id") ?? "",
                actorName: row.string("actor_name") ?? "", kind: row.string("kind") ?? "",
                subject: row.string("subject") ?? "",
                detail: (try? JSONDecoder().decode(JSONValue.self, from: Data((row.string("detail") ?? "{}").utf8)))
                    ?? .null)
        }
    }
}
