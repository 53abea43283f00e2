import FieldTypes
import Foundation
import JQCCore
import Models

extension HomeMenu {
    // MARK: My actions (contract 1.2's corrective actions)

    /// The actions on this device, the soonest due first; choosing one opens it.
    func actionsScreen() -> Flow {
        while true {
            let workspace: Workspace, actions: [WireAction]
            do {
                workspace = try context.workspace()
                actions = try workspace.actions(ActionFilter())
            } catch { fail(error); return .back }
            let now = workspace.now()
            // Titles come from people and the server: one line each through the sanitiser.
            let rows = actions.map { action -> [String] in
                [
                    ActionPresenter.short(action.id), ActionPresenter.stateName(action.state),
                    (action.dueAt.map { String($0.prefix(10)) } ?? "-")
                        + (Workspace.isOverdue(action, now: now) ? " late" : ""),
                    OneLine.flatten(action.title, lineBreak: " "),
                ]
            }
            let table = MenuScreen.table(["ID", "STATE", "DUE", "TITLE"], rows, flexible: 3)
            let screen = MenuScreen(
                title: "My actions",
                lines: actions.isEmpty
                    ? [
                        "No actions on this device.",
                        "Actions given to you, or made from your reports, arrive with sync.",
                    ]
                    : ["What inspections found that needs fixing. Choose one to see it and move it on."],
                header: table.header, items: table.items, keys: Self.backKeys)
            guard let choice = choose(screen) else { return .quit }
            switch choice {
            case .item(let index):
                if actionScreen(actions[index].id) == .quit { return .quit }
            case .key("q"): return .quit
            default: return .back
            }
        }
    }

    /// One action: its facts and thread, then s) start, d) done, c) comment, v) verify.
    func actionScreen(_ id: String) -> Flow {
        while true {
            let workspace: Workspace, action: WireAction, lines: [String]
            do {
                workspace = try context.workspace()
                action = try workspace.action(id)
                lines =
                    ActionPresenter.detail(action, queued: try workspace.queuedChanges(of: id), workspace: workspace)
                    .lines
            } catch { fail(error); return .back }
            let keys = [
                MenuScreen.Key("s", "start"), MenuScreen.Key("d", "done"), MenuScreen.Key("c", "comment"),
                MenuScreen.Key("v", "verify"),
            ]
            let screen = MenuScreen(
                title: "Action \(ActionPresenter.short(action.id)) · \(ActionPresenter.stateName(action.state))",
                lines: lines.flatMap { MenuScreen.wrap($0) }, keys: keys + Self.backKeys)
            guard let choice = choose(screen) else { return .quit }
            guard case .key(let letter) = choice else { continue }
            let state: ActionState?
            switch letter {
            case "s": state = .inProgress
            case "d": state = .done
            case "v": state = .verified
            case "c": state = nil
            case "q": return .quit
            default: return .back
            }
            guard let words = ask(state == nil ? "Comment: " : "Comment (Enter for none): ") else { return .quit }
            if state == nil && words.isEmpty { continue }
            queueFromMenu(WireActionChange(id: UUID(), state: state, comment: words.isEmpty ? nil : words), of: action)
        }
    }

    /// Queues a change made on the menu; what it says, or why not, becomes a notice.
    private func queueFromMenu(_ change: WireActionChange, of action: WireAction) {
        do throws(AppError) {
            guard let saved = try context.credentials.load() else {
                throw AppError(
                    code: .authRequired, "Not signed in. Sign in with 'jqc login --server URL --username NAME'.",
                    exitCode: ExitCode.authRequired)
            }
            let output = try ActionCommands.queue(change, of: action, by: saved.user, in: try context.workspace())
            notices += output.lines
        } catch {
            fail(error)
        }
    }
}
