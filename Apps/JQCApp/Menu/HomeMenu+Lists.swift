import Foundation
import JQCCore
import Models

extension HomeMenu {
    /// Which reports a report list shows.
    enum ReportList {
        /// DRAFT and REJECTED: work to resume.
        case drafts
        /// PENDING and CONFLICT: waiting for sync.
        case pendingSync
        /// Every report on this device.
        case all
    }

    // MARK: Assignments

    /// Assignments to do; choosing one starts it (or resumes its draft) in the form runner.
    func assignmentsScreen() -> Flow {
        while true {
            let workspace: Workspace, todo: [Assignment], reports: [Report], names: MenuNames
            do {
                workspace = try context.workspace()
                reports = try workspace.reports()
                todo = try assignmentsToDo(workspace, reports: reports)
                names = try MenuNames(workspace)
            } catch { fail(error); return .back }
            func inProgress(_ assignment: Assignment) -> Report? {
                reports.first { $0.assignmentID == assignment.id && $0.lifecycle.isEditable }
            }
            let rows = todo.map { a -> [String] in
                [
                    MenuScreen.cell(names.template(a.templateID), 18), names.place(a.facilityID, a.areaID),
                    DueText.of(a.dueAt),
                    inProgress(a).map { "\(workspace.short($0)) \($0.state.rawValue)" } ?? "not started",
                ]
            }
            // Every assignment listed is open (status "open"), so the table spends its width on the rest.
            let table = MenuScreen.table(["TEMPLATE", "FACILITY / AREA", "DUE", "REPORT"], rows, flexible: 1)
            let screen = MenuScreen(
                title: "Assignments to do",
                lines: todo.isEmpty
                    ? [
                        "Nothing to do: no open assignment is waiting on this device.",
                        "Assignments arrive with sync, or import them from Settings.",
                    ]
                    : ["Open assignments not yet completed. Choose one to start or continue it."],
                header: table.header, items: table.items, keys: Self.backKeys)
            guard let choice = choose(screen) else { return .quit }
            switch choice {
            case .item(let index):
                let assignment = todo[index]
                let report: Report
                do {
                    if let existing = inProgress(assignment) {
                        report = existing
                    } else {
                        report = try workspace.start(assignmentID: assignment.id)
                        notices.append("Started report \(workspace.short(report)) for assignment \(assignment.id).")
                    }
                } catch { fail(error); continue }
                if runForm(report.localID) == .quit { return .quit }
                if reportScreen(report.localID) == .quit { return .quit }
            case .key("q"): return .quit
            default: return .back
            }
        }
    }

    // MARK: Reports

    /// Drafts to resume, reports waiting for sync, or every report; choosing one opens it.
    func reportListScreen(_ list: ReportList) -> Flow {
        while true {
            let workspace: Workspace, reports: [Report], names: MenuNames
            do {
                workspace = try context.workspace()
                let all = try workspace.reports()
                switch list {
                case .drafts: reports = all.filter { $0.state == .draft || $0.state == .rejected }
                case .pendingSync: reports = all.filter { $0.state == .pending || $0.state == .conflict }
                case .all: reports = all
                }
                names = try MenuNames(workspace)
            } catch { fail(error); return .back }
            let header: [String]
            let rows: [[String]]
            if list == .pendingSync {
                header = ["ID", "STATE", "TEMPLATE", "FACILITY / AREA", "TRIES", "LAST ERROR"]
                rows = reports.map { r in
                    [
                        workspace.short(r), r.state.rawValue, MenuScreen.cell(names.template(r.templateID), 16),
                        MenuScreen.cell(names.place(r.facilityID, r.areaID), 20), String(r.lifecycle.attemptCount),
                        r.lifecycle.lastError.map { "\($0.code): \($0.message)" } ?? "-",
                    ]
                }
            } else {
                header = ["ID", "STATE", "TEMPLATE", "FACILITY / AREA", "SCORE"]
                rows = reports.map { r in
                    [
                        workspace.short(r), r.state.rawValue, MenuScreen.cell(names.template(r.templateID), 18),
                        names.place(r.facilityID, r.areaID),
                        r.score.map { "\(Int(($0 * 100).rounded()))%" } ?? "-",
                    ]
                }
            }
            let table = MenuScreen.table(header, rows, flexible: list == .pendingSync ? 5 : 3)
            let screen = MenuScreen(
                title: Self.title(of: list), lines: Self.intro(of: list, empty: reports.isEmpty),
                header: table.header, items: table.items, keys: Self.backKeys)
            guard let choice = choose(screen) else { return .quit }
            switch choice {
            case .item(let index):
                if reportScreen(reports[index].localID) == .quit { return .quit }
            case .key("q"): return .quit
            default: return .back
            }
        }
    }

    private static func title(of list: ReportList) -> String {
        switch list {
        case .drafts: return "Drafts to resume"
        case .pendingSync: return "Pending sync"
        case .all: return "All reports"
        }
    }

    private static func intro(of list: ReportList, empty: Bool) -> [String] {
        switch list {
        case .drafts:
            return empty
                ? ["No drafts: every report on this device is complete."]
                : ["Drafts and reports the server rejected. Choose one to continue it."]
        case .pendingSync:
            return
                (empty
                ? ["Nothing waits for sync."] : ["Completed reports waiting to upload, and conflicts to resolve."])
                + ["Sync runs with 'jqc sync' or the jqc-agent; this menu does not sync."]
        case .all:
            return empty
                ? ["No reports on this device yet. Start one from Assignments or a template."]
                : ["Every report on this device, newest first."]
        }
    }

    // MARK: Issues

    /// Every issue on this device; choosing one opens its report.
    func issuesScreen() -> Flow {
        while true {
            let workspace: Workspace, listings: [IssueListing]
            do {
                workspace = try context.workspace()
                listings = try workspace.issues()
            } catch { fail(error); return .back }
            let rows = listings.map { listing in
                [
                    listing.issue.severity.rawValue.uppercased(), listing.issue.description,
                    listing.report.map { "\(workspace.short($0)) \($0.state.rawValue)" }
                        ?? Workspace.shortID(listing.issue.reportLocalID),
                ]
            }
            let table = MenuScreen.table(["SEVERITY", "DESCRIPTION", "REPORT"], rows, flexible: 1)
            let screen = MenuScreen(
                title: "Issues",
                lines: listings.isEmpty
                    ? ["No issues on this device. Flag one from a report (i)."]
                    : ["Every issue on this device, newest first. Choose one to open its report."],
                header: table.header, items: table.items, keys: Self.backKeys)
            guard let choice = choose(screen) else { return .quit }
            switch choice {
            case .item(let index):
                if reportScreen(listings[index].issue.reportLocalID) == .quit { return .quit }
            case .key("q"): return .quit
            default: return .back
            }
        }
    }

    // MARK: Facilities

    /// The cached facilities; choosing one shows its areas.
    func facilitiesScreen() -> Flow {
        while true {
            let workspace: Workspace, facilities: [Facility]
            do {
                workspace = try context.workspace()
                facilities = try workspace.facilities()
            } catch { fail(error); return .back }
            let table = MenuScreen.table(
                ["NAME", "ADDRESS", "PROJECT"],
                facilities.map { [MenuScreen.cell($0.name, 30), $0.address, MenuScreen.cell($0.projectName, 20)] },
                flexible: 1)
            let screen = MenuScreen(
                title: "Facilities",
                lines: facilities.isEmpty
                    ? ["No facilities on this device. Sync, or import them from Settings."]
                    : ["Choose one to see its areas."],
                header: table.header, items: table.items, keys: Self.backKeys)
            guard let choice = choose(screen) else { return .quit }
            switch choice {
            case .item(let index):
                if areasScreen(facilities[index], workspace: workspace) == .quit { return .quit }
            case .key("q"): return .quit
            default: return .back
            }
        }
    }

    private func areasScreen(_ facility: Facility, workspace: Workspace) -> Flow {
        let areas: [Area]
        do {
            areas = try workspace.areas(facilityID: facility.id)
        } catch { fail(error); return .back }
        let table = TextTable.render(["AREA", "TYPE", "ID"], areas.map { [$0.name, $0.areaType, $0.id] })
        let lines =
            [facility.address, ""]
            + (areas.isEmpty ? ["No areas on this device for this facility."] : table.map { "  " + $0 })
        let screen = MenuScreen(title: "\(facility.name) (\(facility.id))", lines: lines, keys: Self.backKeys)
        guard let choice = choose(screen) else { return .quit }
        return choice == .key("q") ? .quit : .back
    }

    // MARK: History

    /// Completed inspections on the server, newest first, a page at a time
    /// (online only); offline or signed out, the reason and what to do instead.
    func historyScreen() async -> Flow {
        let pageSize = 15
        var offset = 0
        while true {
            io.clear()
            io.write("Reading history from the server…")
            let lines: [String]
            var keys = Self.backKeys
            do {
                let page = try await SyncService(context: context).history(limit: pageSize, offset: offset)
                lines = historyLines(page, offset: offset)
                if offset + page.items.count < page.total { keys.insert(MenuScreen.Key("n", "next page"), at: 0) }
                if offset > 0 { keys.insert(MenuScreen.Key("p", "previous page"), at: 0) }
            } catch {
                lines = MenuScreen.wrap(error.message) + ["Reports still on this device are under All reports."]
            }
            guard let choice = choose(MenuScreen(title: "History", lines: lines, keys: keys)) else { return .quit }
            switch choice {
            case .key("n"): offset += pageSize
            case .key("p"): offset = max(0, offset - pageSize)
            case .key("q"): return .quit
            default: return .back
            }
        }
    }

    private func historyLines(_ page: HistoryPage, offset: Int) -> [String] {
        guard !page.items.isEmpty else {
            return [page.total == 0 ? "No completed inspections on the server yet." : "No inspections on this page."]
        }
        let workspace = try? context.workspace()
        let rows = page.items.map { item -> [String] in
            let template = workspace?.templateName(item.templateID) ?? item.templateID
            let facility = workspace?.facilityName(item.facilityID) ?? item.facilityID
            return [
                String(item.completedAt.prefix(10)), MenuScreen.cell(template, 18), MenuScreen.cell(facility, 20),
                item.score.map { "\(Int(($0 * 100).rounded()))%" } ?? "-", item.followUpRequired ? "follow-up" : "",
                MenuScreen.cell(item.inspector.displayName, 16),
            ]
        }
        return TextTable.render(["COMPLETED", "TEMPLATE", "FACILITY", "SCORE", "", "INSPECTOR"], rows)
            + ["\(offset + 1)-\(offset + page.items.count) of \(page.total) on the server."]
    }
}
