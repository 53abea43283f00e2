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
                let matches = try workspace.assignmentsMatching(
                    templateID: template.id, facilityID: facility.id, areaID: areaID)
                guard let taken = matches.count > 1 ? chooseAssignment(matches) : .some(matches.first?.id) else {
                    return .quit
                }
                if let taken {
                    report = try workspace.start(assignmentID: taken)
                } else {
                    report = try workspace.start(templateID: template.id, facilityID: facility.id, areaID: areaID)
                }
                notices.append(
                    "Started report \(workspace.short(report))"
                        + (taken.map { " for assignment \(flatLine($0))" } ?? "") + ".")
            } catch { fail(error); continue }
            if runForm(report.localID) == .quit { return .quit }
            return reportScreen(report.localID)
        }
    }

    /// Of several open assignments an inspection would fulfil, the one a
    /// person picks: an id, `.some(nil)` for none, nil when input has ended.
    private func chooseAssignment(_ matches: [Assignment]) -> String?? {
        let table = MenuScreen.table(
            ["ASSIGNMENT", "DUE"], matches.map { [$0.id, DueText.of($0.dueAt)] }, flexible: 0)
        while true {
            let screen = MenuScreen(
                title: "Which assignment is this for?",
                lines: ["\(matches.count) open assignments match this inspection."],
                header: table.header, items: table.items, keys: [MenuScreen.Key("n", "none")])
            guard let choice = choose(screen) else { return nil }
            switch choice {
            case .item(let index): return .some(matches[index].id)
            case .key("n"): return .some(nil)
            default: continue
            }
        }
    }
}
