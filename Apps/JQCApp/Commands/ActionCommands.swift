import ArgumentParsing
import FieldTypes
import Foundation
import JQCCore
import Models

/// actions, action show|start|done|comment|verify|reopen|assign|cancel|new
/// (contract 1.2): the corrective actions the last sync brought, and
/// changes made offline, queued and sent at the next sync, each once.
enum ActionCommands {
    static var all: [Command] { [list, show, start, done, comment, verify, reopen, assign, cancel, new] }

    static let stateFilter = Option(
        "state", "STATE", help: "open, in_progress, done, verified or cancelled",
        as: .checked(
            ActionState.init(typed:),
            otherwise: { word, label in
                "\(label) takes \(ActionState.allCases.map(\.rawValue).joined(separator: ", ")); got \(OneLine.quote(word))."
            }))
    static let facility = Option("facility", "ID", help: "only actions at this facility", as: .id)
    static let mine = Flag("mine", help: "only actions assigned to me")
    static let overdue = Flag("overdue", help: "only open or in-progress actions past their due time")
    static let action = Argument(
        "ID", help: "the action's id, or at least 4 characters of its start (as 'jqc actions' shows it)")
    static let commentText = Argument("TEXT", help: "what to say")
    static let user = Argument("USER", help: "the user name to give it to")

    static let optionalComment = ReviewCommands.comment(help: "a comment to go with it")
    static let photos = Option(
        repeating: "photo", "FILE",
        help: "a JPEG or PNG of the work, compressed like a report's photo; sent after the change (repeatable)")
    static let neededComment = ReviewCommands.comment(help: "why (required)")

    static let queuedNote =
        "Works offline: the change is kept on this device and sent at the next sync, once; the server judges it then."

    static let list = Command(
        CommandSpec(
            "actions",
            summary: "the corrective actions on this device: assigned to me, from my reports (all for supervisors)",
            options: [stateFilter.spec, facility.spec, mine.spec, overdue.spec],
            discussion: """
                The actions the last sync brought, the soonest due first, with changes still waiting to be sent marked.
                Examples:
                  jqc actions --mine --overdue
                  jqc actions --state done --facility F-100
                Exit codes: 0 listed; 2 a bad option; 6 --mine when nobody is signed in.
                """)
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        var filter = ActionFilter(
            state: try inv[Self.stateFilter], facilityID: try inv[Self.facility], overdue: inv[Self.overdue])
        if inv[Self.mine] { filter.assigneeID = try signedIn(inv).id }
        let actions = try workspace.actions(filter)
        let waiting = Dictionary(grouping: try workspace.queuedActionChanges().compactMap(\.actionID), by: { $0 })
        return ActionPresenter.list(actions, waiting: waiting.mapValues(\.count), workspace: workspace)
    }

    static let show = Command(
        CommandSpec(
            "action show", summary: "an action with its thread, and its changes waiting to be sent",
            positionals: [action.spec],
            discussion: "Exit codes: 0 shown; 3 no such action on this device.")
    ) { (inv) throws(AppError) -> CommandOutput in
        let workspace = try inv.workspace()
        let action = try workspace.action(try inv[Self.action])
        return ActionPresenter.detail(action, queued: try workspace.queuedChanges(of: action.id), workspace: workspace)
    }

    /// A command that moves an action to `state`, with an optional or a required comment.
    static func move(
        _ name: String, to state: ActionState, summary: String, commentRequired: Bool = false,
        takesPhotos: Bool = false,
        example: String
    ) -> Command {
        let comment = commentRequired ? neededComment : optionalComment
        return Command(
            CommandSpec(
                "action \(name)", summary: summary, positionals: [action.spec],
                options: [comment.spec] + (takesPhotos ? [photos.spec] : []),
                discussion: """
                    \(queuedNote)
                    Example: \(example)
                    Exit codes: 0 queued; 3 no such action; 4 a required comment missing; 5 a move your role never makes.
                    """)
        ) { (inv) throws(AppError) -> CommandOutput in
            let text = try inv[comment]
            if commentRequired && text == nil {
                throw AppError.validation("'action \(name)' needs --comment TEXT: say why.")
            }
            return try queue(
                inv, WireActionChange(id: UUID(), state: state, comment: text),
                photos: takesPhotos ? inv[Self.photos] : [])
        }
    }

    static let start = move(
        "start", to: .inProgress, summary: "start the work of an action assigned to you", takesPhotos: true,
        example: "jqc action start 3f2a --photo before.jpg")
    static let done = move(
        "done", to: .done, summary: "mark an action's work done, for someone else to check", takesPhotos: true,
        example: "jqc action done 3f2a --comment 'Replaced the washer' --photo after.jpg")
    static let verify = move(
        "verify", to: .verified, summary: "the inspector who flagged it, or a supervisor: the fix holds",
        example: "jqc action verify 3f2a")
    static let reopen = move(
        "reopen", to: .open, summary: "the inspector who flagged it, or a supervisor: the fix does not hold",
        commentRequired: true, example: "jqc action reopen 3f2a --comment 'Still dripping'")
    static let cancel = move(
        "cancel", to: .cancelled, summary: "supervisors: the action is not needed", commentRequired: true,
        example: "jqc action cancel 3f2a --comment 'Duplicate of 9b1c'")

    static let comment = Command(
        CommandSpec(
            "action comment", summary: "add a comment to an action's thread",
            positionals: [action.spec, commentText.spec], options: [photos.spec],
            discussion:
                "\(queuedNote)\nExample: jqc action comment 3f2a 'Parts ordered, fitting Thursday' --photo part.jpg")
    ) { (inv) throws(AppError) -> CommandOutput in
        let text = try inv[Self.commentText].trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw AppError.validation("The comment is empty: say something.") }
        return try queue(inv, WireActionChange(id: UUID(), comment: text), photos: inv[Self.photos])
    }

    /// Queues `change` of the action the command names, after what this device can check.
    static func queue(_ inv: Invocation, _ change: WireActionChange, photos: [String] = []) throws(AppError)
        -> CommandOutput
    {
        let workspace = try inv.workspace()
        return try queue(
            change, of: try workspace.action(try inv[Self.action]), by: try signedIn(inv), in: workspace,
            photos: photos)
    }

    /// Queues `change` of `action` by `user`, after what this device can check: the commands and the menu alike.
    static func queue(
        _ change: WireActionChange, of action: WireAction, by user: WireUser, in workspace: Workspace,
        photos files: [String] = []
    ) throws(AppError) -> CommandOutput {
        let movers = try workspace.movers(action, user: user)
        var notes: [String] = []
        if let wanted = change.state {
            // A move the person's role never makes is refused here; one the action's state (as this device last
            // saw it) does not allow is queued with a note, since the server's may have changed meanwhile.
            let named = ActionMove.table.contains { $0.to == wanted && !$0.movers.isDisjoint(with: movers) }
            guard named else {
                throw AppError.blocked(
                    .notAllowed, "You may not move an action to \(wanted.rawValue): \(ActionPresenter.whoMay(wanted)).")
            }
            if ActionMove.judge(from: action.state, to: wanted, caller: movers) != .allowed {
                notes.append(
                    "As this device last saw it, the action is \(ActionPresenter.stateName(action.state)); the server decides at the next sync."
                )
            }
        }
        if (change.assignee != .absent || change.dueAt != .absent) && !movers.contains(.supervisors) {
            throw AppError.blocked(
                .notAllowed, "Only supervisors and admins give an action to someone or set when it is due.")
        }
        let photos = try workspace.queueChange(change, of: action, photoFiles: files)
        return ActionPresenter.queued(change, of: action, photos: photos, notes: notes)
    }

    /// The signed-in user, from the credentials kept on this device (offline too).
    static func signedIn(_ inv: Invocation) throws(AppError) -> WireUser {
        guard let saved = try inv.context.credentials.load() else {
            throw AppError(
                code: .authRequired, "Not signed in. Sign in with 'jqc login --server URL --username NAME'.",
                exitCode: ExitCode.authRequired)
        }
        return saved.user
    }
}
