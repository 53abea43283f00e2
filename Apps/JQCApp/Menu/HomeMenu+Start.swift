import Foundation
import JQCCore
import Models

extension HomeMenu {
    /// Start from a template: choose the template, the facility, then the
    /// area (or none); the report starts and opens in the form runner.
    func startFromTemplate() -> Flow {
        let workspace: Workspace, templates: [Template], facilities: [Facility]
        do {
            workspace = try context.workspace()
            templates = try workspace.templates()
            facilities = try workspace.facilities()
        } catch { fail(error); return .back }
        while true {
            let table = MenuScreen.table(
                ["TEMPLATE", "VERSION", "FIELDS"],
                templates.map { [$0.name, String($0.version), String($0.schema.fields.count)] }, flexible: 0)
            let screen = MenuScreen(
                title: "Start from a template",
                lines: templates.isEmpty
                    ? ["No templates on this device. Sync, or import them from Settings."]
                    : ["Step 1 of 3: the template."],
                header: table.header, items: table.items, keys: Self.backKeys)
            guard let choice = choose(screen) else { return .quit }
            guard case .item(let index) = choice else { return choice == .key("q") ? .quit : .back }
            switch chooseFacility(for: templates[index], facilities: facilities, workspace: workspace) {
            case .quit: return .quit
            case .back: continue
            }
        }
    }

    private func chooseFacility(for template: Template, facilities: [Facility], workspace: Workspace) -> Flow {
        while true {
            let table = MenuScreen.table(
                ["FACILITY", "ADDRESS"], facilities.map { [MenuScreen.cell($0.name, 30), $0.address] }, flexible: 1)
            let screen = MenuScreen(
                title: "Start \(template.name)",
                lines: facilities.isEmpty
                    ? ["No facilities on this device. Sync, or import them from Settings."]
                    : ["Step 2 of 3: the facility."],
                header: table.header, items: table.items, keys: Self.backKeys)
            guard let choice = choose(screen) else { return .quit }
            guard case .item(let index) = choice else { return choice == .key("q") ? .quit : .back }
            switch chooseArea(for: template, at: facilities[index], workspace: workspace) {
            case .quit: return .quit
            case .back: continue
            }
        }
    }

    private func chooseArea(for template: Template, at facility: Facility, workspace: Workspace) -> Flow {
        let areas: [Area]
        do {
            areas = try workspace.areas(facilityID: facility.id)
        } catch { fail(error); return .back }
        while true {
            let table = MenuScreen.table(["AREA", "TYPE"], areas.map { [$0.name, $0.areaType] }, flexible: 0)
            let screen = MenuScreen(
                title: "Start \(template.name) at \(facility.name)",
                lines: ["Step 3 of 3: the area, or n for the facility as a whole."],
                header: table.header, items: table.items,
                keys: [MenuScreen.Key("n", "no area")] + Self.backKeys)
            guard let choice = choose(screen) else { return .quit }
            let areaID: String?
            switch choice {
            case .item(let index): areaID = areas[index].id
            case .key("n"): areaID = nil
            case .key("q"): return .quit
            default: return .back
            }
            let report: Report
            do {
                report = try workspace.start(templateID: template.id, facilityID: facility.id, areaID: areaID)
            } catch { fail(error); continue }
            notices.append("Started report \(workspace.short(report)).")
            if runForm(report.localID) == .quit { return .quit }
            return reportScreen(report.localID)
        }
    }
}
