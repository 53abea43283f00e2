import Foundation
import Models
import ServerStore

/// Facilities, areas, templates and assignments as rows hold them.
extension SQLRecords {
    /// The facility in `row`.
    public static func facility(_ row: some SQLRow) -> Facility {
        Facility(
            id: row.text("id") ?? "", name: row.text("name") ?? "", address: row.text("address") ?? "",
            projectName: row.text("project_name") ?? "")
    }

    /// The area in `row`.
    public static func area(_ row: some SQLRow) -> Area {
        Area(
            id: row.text("id") ?? "", facilityID: row.text("facility_id") ?? "", name: row.text("name") ?? "",
            areaType: row.text("area_type") ?? "")
    }

    /// The template a row holds; nil when its stored schema no longer decodes.
    public static func template(_ row: some SQLRow) -> Template? {
        guard let id = row.text("id"), let name = row.text("name"), let text = row.text("form_schema"),
            let raw = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        else { return nil }
        var members: [String: JSONValue] = [
            "id": .string(id), "name": .string(name),
            "version": .integer(row.integer("version") ?? 1), "form_schema": raw,
        ]
        if let threshold = row.real("pass_threshold") { members["pass_threshold"] = .double(threshold) }
        let json = JSONValue.object(members)
        guard case .success(let template) = Template.decode(json) else { return nil }
        return template
    }

    /// The columns a managed assignment is read from.
    public static let assignmentColumns =
        "id, inspector_id, template_id, facility_id, area_id, due_at, status, cancelled_at"

    /// The assignment in `row`.
    public static func assignment(_ row: some SQLRow) -> Assignment {
        Assignment(
            id: row.text("id") ?? "", templateID: row.text("template_id") ?? "",
            facilityID: row.text("facility_id") ?? "", areaID: row.text("area_id"), dueAt: row.text("due_at"),
            status: AssignmentStatus(rawValue: row.text("status") ?? "open") ?? .open)
    }

    /// The assignment in `row` with whom it is for and when it was cancelled.
    public static func managedAssignment(_ row: some SQLRow) -> ManagedAssignment {
        ManagedAssignment(
            assignment: assignment(row), inspectorID: row.text("inspector_id") ?? "",
            cancelledAt: row.text("cancelled_at"))
    }

    /// A published version of a template, as an export lists them.
    public static func publishedVersion(_ row: some SQLRow) -> PublishedVersion {
        PublishedVersion(
            templateID: row.text("template_id") ?? "", version: Int(row.integer("version") ?? 0),
            publishedAt: row.text("published_at") ?? "", schemaJSON: row.text("form_schema") ?? "{}")
    }

    /// The entry of the admin log in `row`.
    public static func adminEvent(_ row: some SQLRow) -> AdminEvent {
        AdminEvent(
            sequence: row.integer("seq") ?? 0, at: row.text("at") ?? "", actorID: row.text("actor_id") ?? "",
            actorName: row.text("actor_name") ?? "", actorUsername: row.text("actor_username"),
            kind: row.text("kind") ?? "",
            subject: row.text("subject") ?? "",
            detail: (try? JSONDecoder().decode(JSONValue.self, from: Data((row.text("detail") ?? "{}").utf8)))
                ?? .null)
    }
}
