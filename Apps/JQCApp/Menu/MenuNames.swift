import JQCCore
import Models

/// Names of the cached templates, facilities and areas, read once per screen,
/// so lists show "Lobby walkthrough" rather than "lobby-walk".
struct MenuNames {
    private var templates: [String: String] = [:]
    private var facilities: [String: String] = [:]
    private var areas: [String: String] = [:]

    /// Reads every name from the workspace.
    init(_ workspace: Workspace) throws(AppError) {
        for template in try workspace.templates() { templates[template.id] = template.name }
        for facility in try workspace.facilities() {
            facilities[facility.id] = facility.name
            for area in try workspace.areas(facilityID: facility.id) { areas[area.id] = area.name }
        }
    }

    /// A template's name, or its id when it is not cached.
    func template(_ id: String) -> String { templates[id] ?? id }

    /// A facility's name, or its id.
    func facility(_ id: String) -> String { facilities[id] ?? id }

    /// An area's name, or its id; "-" for none.
    func area(_ id: String?) -> String { id.map { areas[$0] ?? $0 } ?? "-" }

    /// "Facility / Area" as one cell.
    func place(_ facilityID: String, _ areaID: String?) -> String {
        areaID == nil ? facility(facilityID) : "\(facility(facilityID)) / \(area(areaID))"
    }
}
