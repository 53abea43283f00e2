import Foundation
import Models
import ServerStore

/// What admins manage: every site, template, assignment and user, retired
/// ones included, and the log of who changed what.
extension SQLStatements {
    public func managedFacilities() throws(ServerError) -> [ManagedFacility] {
        try rows("SELECT id, name, address, project_name, retired_at FROM facilities ORDER BY position, id").map {
            row in
            ManagedFacility(facility: SQLRecords.facility(row), retiredAt: row.text("retired_at"))
        }
    }

    public func managedFacility(id: String) throws(ServerError) -> ManagedFacility? {
        try firstRow("SELECT id, name, address, project_name, retired_at FROM facilities WHERE id = ?", [.text(id)])
            .map { row in ManagedFacility(facility: SQLRecords.facility(row), retiredAt: row.text("retired_at")) }
    }

    public func setFacilityRetired(id: String, at: String?) throws(ServerError) {
        try run("UPDATE facilities SET retired_at = ? WHERE id = ?", [.optional(at), .text(id)])
    }

    public func managedAreas(facilityID: String?) throws(ServerError) -> [ManagedArea] {
        let filter = facilityID == nil ? "" : "WHERE facility_id = ?"
        return try rows(
            """
            SELECT id, facility_id, name, area_type, retired_at FROM areas \(filter)
            ORDER BY facility_id, position, id
            """,
            facilityID.map { [SQLParameter.text($0)] } ?? []
        ).map { row in ManagedArea(area: SQLRecords.area(row), retiredAt: row.text("retired_at")) }
    }

    public func setAreaRetired(id: String, at: String?) throws(ServerError) {
        try run("UPDATE areas SET retired_at = ? WHERE id = ?", [.optional(at), .text(id)])
    }

    public func managedTemplates() throws(ServerError) -> [ManagedTemplate] {
        var versions: [String: [Int]] = [:]
        for row in try rows("SELECT template_id, version FROM template_versions ORDER BY template_id, version") {
            versions[row.text("template_id") ?? "", default: []].append(Int(row.integer("version") ?? 0))
        }
        return try rows(
            "SELECT id, name, version, form_schema, pass_threshold, retired_at FROM templates ORDER BY position, id"
        )
        .compactMap { row in
            guard let template = SQLRecords.template(row) else { return nil }
            return ManagedTemplate(
                template: template, versions: versions[template.id] ?? [template.version],
                retiredAt: row.text("retired_at"))
        }
    }

    public func setTemplateRetired(id: String, at: String?) throws(ServerError) {
        try run("UPDATE templates SET retired_at = ? WHERE id = ?", [.optional(at), .text(id)])
        try bumpTemplateRevision()
    }

    public func managedAssignments(inspectorID: String?) throws(ServerError) -> [ManagedAssignment] {
        let filter = inspectorID == nil ? "" : "WHERE inspector_id = ?"
        return try rows(
            "SELECT \(SQLRecords.assignmentColumns) FROM assignments \(filter) ORDER BY due_at IS NULL, due_at, id",
            inspectorID.map { [SQLParameter.text($0)] } ?? []
        ).map { SQLRecords.managedAssignment($0) }
    }

    public func managedAssignment(id: String) throws(ServerError) -> ManagedAssignment? {
        try firstRow("SELECT \(SQLRecords.assignmentColumns) FROM assignments WHERE id = ?", [.text(id)])
            .map { SQLRecords.managedAssignment($0) }
    }

    public func recordAdminEvent(_ event: AdminEvent) throws(ServerError) {
        try run(
            "INSERT INTO admin_events (at, actor_id, actor_name, kind, subject, detail) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(event.at), .text(event.actorID), .text(event.actorName), .text(event.kind), .text(event.subject),
                .text(CanonicalJSON.string(event.detail)),
            ])
    }

    public func adminEvents(limit: Int, before: Int64?) throws(ServerError) -> [AdminEvent] {
        try rows(
            """
            SELECT e.seq, e.at, e.actor_id, e.actor_name, u.username AS actor_username, e.kind, e.subject, e.detail
            FROM admin_events e LEFT JOIN users u ON u.id = e.actor_id
            WHERE e.seq < ? ORDER BY e.seq DESC LIMIT ?
            """, [.integer(before ?? Int64.max), .count(limit)]
        ).reversed().map { SQLRecords.adminEvent($0) }
    }
}
