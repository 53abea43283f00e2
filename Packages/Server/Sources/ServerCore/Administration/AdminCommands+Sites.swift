import ArgumentParsing
import Models
import ServerStore

/// `jqc-server admin facility ...` and `area ...`: the organisation's sites
/// and their areas, named noun first.
extension AdminCommands {
    /// The older command named `name` (`add-facility`), whose work a noun-first name shares.
    static func older(_ name: String) -> AdminCommand {
        guard let command = aliases.first(where: { $0.name == name }) else {
            preconditionFailure("no admin command '\(name)' to name anew")
        }
        return command
    }

    /// `area add`'s facility, named before the area.
    static let areaFacility = Argument("FACILITY_ID", help: "the facility the area belongs to")
    /// `area add`'s new area.
    static let newArea = Argument("AREA_ID", help: "the organisation's own id for the area, e.g. A-101")

    static let siteCommands: [AdminCommand] = [
        AdminCommand("facility add", as: older("add-facility")),
        AdminCommand("facility update", as: older("edit-facility")),
        AdminCommand("facility retire", as: older("retire-facility")),
        AdminCommand("facility list", as: older("facilities")),
        AdminCommand("facilities import", as: older("import-facilities")),
        AdminCommand(
            "area add", summary: "add an area to a facility",
            positionals: [areaFacility.spec, newArea.spec],
            options: [Site.name.spec, Site.areaType.spec]
        ) { parsed, admin throws(ServerError) in
            let record = try admin.addArea(
                Area(
                    id: try parsed[newArea], facilityID: try parsed[areaFacility],
                    name: try parsed[Site.name] ?? "", areaType: try parsed[Site.areaType] ?? ""), by: actor)
            return AdminOutput(
                lines: [
                    "added area \(show(record.area.id)) (\(show(record.area.name))) to facility \(show(record.area.facilityID))"
                ],
                json: ["area": AdminWire.area(record)])
        },
        AdminCommand("area update", as: older("edit-area")),
        AdminCommand("area retire", as: older("retire-area")),
        AdminCommand("area list", as: older("areas")),
        AdminCommand("areas import", as: older("import-areas")),
    ]

    /// The facilities as a table, `empty` when there are none.
    static func facilityTable(_ list: [ManagedFacility], empty: String) -> [String] {
        table(
            ["ID", "NAME", "ADDRESS", "PROJECT", "STATE"],
            list.map {
                [
                    $0.facility.id, $0.facility.name, $0.facility.address, $0.facility.projectName,
                    $0.retiredAt == nil ? "active" : "retired",
                ]
            }, empty: empty)
    }
}
