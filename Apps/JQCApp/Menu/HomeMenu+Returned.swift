import FieldTypes
import Foundation
import JQCCore
import Models

extension HomeMenu {
    // MARK: Returned to me (contract 1.1's review)

    /// Reports a supervisor returned for changes, with who returned them and
    /// their comment; choosing one shows its comments and offers show, amend and run.
    func returnedScreen() -> Flow {
        while true {
            let workspace: Workspace, reports: [Report], names: MenuNames
            do {
                workspace = try context.workspace()
                reports = try workspace.returnedReports()
                names = try MenuNames(workspace)
            } catch { fail(error); return .back }
            // Names and comments come from the server and people: one line each through the sanitiser.
            let rows = reports.map { r -> [String] in
                let review = r.lifecycle.review
                return [
                    workspace.short(r), r.state.rawValue,
                    MenuScreen.cell(OneLine.flatten(names.template(r.templateID), lineBreak: " "), 16),
                    MenuScreen.cell(OneLine.flatten(review?.decidedBy?.displayName ?? "-", lineBreak: " "), 14),
                    OneLine.flatten(review?.comment ?? review?.fieldComments.first?.comment ?? "-", lineBreak: " "),
                ]
            }
            let table = MenuScreen.table(["ID", "STATE", "TEMPLATE", "BY", "COMMENT"], rows, flexible: 4)
            let screen = MenuScreen(
                title: "Returned to me",
                lines: reports.isEmpty
                    ? ["No reports are returned to you for changes.", "Returned reports arrive with sync."]
                    : ["A supervisor asked for changes. Choose one to see the comments, amend it and run it."],
                header: table.header, items: table.items, keys: Self.backKeys)
            guard let choice = choose(screen) else { return .quit }
            switch choice {
            case .item(let index):
                if returnedReportScreen(reports[index].localID) == .quit { return .quit }
            case .key("q"): return .quit
            default: return .back
            }
        }
    }

    /// One returned report: its review's comments, then s) show, a) amend, r) run.
    func returnedReportScreen(_ id: UUID) -> Flow {
        let reference = id.uuidString.lowercased()
        while true {
            let report: Report, lines: [String]
            do {
                let workspace = try context.workspace()
                report = try workspace.report(reference)
                lines = ReviewNotes.lines(report, in: workspace, style: context.style).map {
                    OneLine.flatten($0, lineBreak: " ")
                }
            } catch {
                if error.exitCode != ExitCode.notFound { fail(error) }
                return .back
            }
            guard report.lifecycle.awaitsChanges else { return reportScreen(id) }
            var keys = [MenuScreen.Key("s", "show the report")]
            if report.state == .synced { keys.append(MenuScreen.Key("a", "amend it")) }
            keys.append(MenuScreen.Key("r", report.state == .synced ? "amend and run the form" : "continue the form"))
            let screen = MenuScreen(
                title: "Returned \(reference.prefix(8)) · \(report.state.rawValue)",
                lines: lines.flatMap { MenuScreen.wrap($0) }, keys: keys + Self.backKeys)
            guard let choice = choose(screen) else { return .quit }
            guard case .key(let letter) = choice else { continue }
            switch letter {
            case "s":
                if reportScreen(id) == .quit { return .quit }
            case "a":
                _ = amendReturned(report)
            case "r":
                if report.state == .synced, amendReturned(report) == nil { continue }
                if runForm(id) == .quit { return .quit }
            case "q": return .quit
            default: return .back
            }
        }
    }

    /// Amends a returned report (SYNCED -> DRAFT through the lifecycle); nil when refused.
    func amendReturned(_ report: Report) -> Report? {
        do {
            let workspace = try context.workspace()
            let amended = try workspace.amend(report)
            notices.append(
                "\(workspace.short(amended)) is a DRAFT again; change what the comments ask, then complete it.")
            return amended
        } catch {
            fail(error)
            return nil
        }
    }
}
