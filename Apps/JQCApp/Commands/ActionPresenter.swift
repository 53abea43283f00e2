import Foundation
import JQCCore
import Models

/// How `jqc` shows corrective actions: every text from the server through
/// the one sanitiser (`oneLine`), `--json` as the server wrote the action.
enum ActionPresenter {
    /// A state in words.
    static func stateName(_ state: ActionState) -> String {
        state == .inProgress ? "in progress" : state.rawValue
    }

    /// Who may move an action to `state`, in words.
    static func whoMay(_ state: ActionState) -> String {
        switch state {
        case .open: "the assignee (back from in progress), or the inspector who flagged it and supervisors (reopening)"
        case .inProgress, .done: "its assignee, and supervisors and admins"
        case .verified: "the inspector who flagged it, and supervisors and admins, never whoever marked it done"
        case .cancelled: "supervisors and admins"
        }
    }

    /// The short form of an action's id people type: `A-` and 6 hex digits.
    static func short(_ id: String) -> String { String(id.prefix(8)) }

    /// An action as `--json` writes it (the server's shape).
    static func json(_ action: WireAction) -> JSONValue {
        let encoder = JSONEncoder()
        guard let data = try? encoder.encode(action), let value = try? JSONDecoder().decode(JSONValue.self, from: data)
        else { return .null }
        return value
    }

    static func list(_ actions: [WireAction], waiting: [String: Int], workspace: Workspace) -> CommandOutput {
        let now = workspace.now()
        guard !actions.isEmpty else {
            return CommandOutput(
                lines: [
                    "No actions on this device match; 'jqc sync' brings those assigned to you or from your reports."
                ],
                json: ["actions": []])
        }
        let rows = actions.map { action -> [String] in
            let site = workspace.facilityName(action.facilityID) ?? action.facilityID
            var due = action.dueAt.map { String($0.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "-"
            if Workspace.isOverdue(action, now: now) { due += " OVERDUE" }
            let queued = waiting[action.id].map { " (+\($0) waiting)" } ?? ""
            return [
                short(action.id), oneLine(action.title), oneLine(site), action.severity.rawValue,
                stateName(action.state) + queued, oneLine(action.assignee?.displayName ?? "-"), due,
            ]
        }
        let lines = TextTable.render(
            ["ID", "TITLE", "SITE", "SEVERITY", "STATE", "ASSIGNEE", "DUE"], rows, whole: [0])
        return CommandOutput(
            lines: lines,
            json: [
                "actions": .array(
                    actions.map { action in
                        var object = json(action)
                        if case .object(var members) = object {
                            members["waiting"] = .integer(Int64(waiting[action.id] ?? 0))
                            members["overdue"] = .bool(Workspace.isOverdue(action, now: now))
                            object = .object(members)
                        }
                        return object
                    })
            ])
    }

    static func detail(_ action: WireAction, queued: [WaitingActionChange], workspace: Workspace) -> CommandOutput {
        var lines = ["\(oneLine(action.title))  [\(action.id)]"]
        let site = workspace.facilityName(action.facilityID) ?? action.facilityID
        let area =
            action.areaID.map { " · " + oneLine(workspace.areaName($0, facilityID: action.facilityID) ?? $0) } ?? ""
        lines.append("State: \(stateName(action.state))   Severity: \(action.severity.rawValue)")
        lines.append("Site: \(oneLine(site))\(area)")
        lines.append("Assignee: \(oneLine(action.assignee?.displayName ?? "nobody yet"))   Due: \(action.dueAt ?? "-")")
        if let report = action.source.reportServerID { lines.append("From report \(oneLine(report))") }
        lines.append("Made by \(oneLine(action.createdBy.displayName)), \(action.createdAt)")
        if let description = action.description { lines += ["", oneLine(description)] }
        lines += ["", action.updates.isEmpty ? "Nothing has happened to it yet." : "Thread:"]
        for update in action.updates { lines.append("  " + thread(update)) }
        for change in queued {
            lines.append(
                change.refusal.map { "  Not recorded by the server: \(oneLine($0))" }
                    ?? "  Waiting to be sent: \(words(change))")
        }
        return CommandOutput(
            lines: lines,
            json: [
                "action": json(action),
                "queued": .array(
                    queued.map { change in
                        [
                            "request_id": .string(change.requestID.uuidString.lowercased()),
                            "refusal": change.refusal.map(JSONValue.string) ?? .null,
                        ]
                    }),
            ])
    }

    /// One update of the thread, in a line.
    static func thread(_ update: WireActionUpdate) -> String {
        var said: [String] = []
        if let state = update.state { said.append("moved it to \(stateName(state))") }
        switch update.assignee {
        case .set(let name): said.append("gave it to \(oneLine(name))")
        case .cleared: said.append("took it from its assignee")
        case .absent: break
        }
        switch update.dueAt {
        case .set(let time): said.append("set it due \(time)")
        case .cleared: said.append("cleared its due time")
        case .absent: break
        }
        if said.isEmpty { said.append("commented") }
        let comment = update.comment.map { ": \"\(oneLine($0))\"" } ?? ""
        let photos =
            update.photos.isEmpty ? "" : " (\(update.photos.count) photo\(update.photos.count == 1 ? "" : "s"))"
        return "\(update.at) \(oneLine(update.author.displayName)) \(said.joined(separator: ", "))\(comment)\(photos)"
    }

    /// A queued change in words.
    static func words(_ change: WaitingActionChange) -> String {
        switch change.content {
        case .new(let action): return "a new action \"\(oneLine(action.title))\""
        case .update(let update):
            var said: [String] = []
            if let state = update.state { said.append("move to \(stateName(state))") }
            if case .set(let name) = update.assignee { said.append("give to \(oneLine(name))") }
            if case .set(let time) = update.dueAt { said.append("due \(time)") }
            if let comment = update.comment { said.append("comment \"\(oneLine(comment))\"") }
            return said.joined(separator: ", ")
        }
    }

    /// What a queued change prints.
    static func queued(_ change: WireActionChange, of action: WireAction, photos: [KeptPhoto] = [], notes: [String])
        -> CommandOutput
    {
        let what = words(WaitingActionChange(.update(change), actionID: action.id))
        let photoWords = photos.isEmpty ? "" : " with \(photos.count) photo\(photos.count == 1 ? "" : "s")"
        return CommandOutput(
            lines: [
                "Queued for \(short(action.id)) \"\(oneLine(action.title))\": \(what)\(photoWords). It is sent at the next sync."
            ]
                + notes,
            json: [
                "queued": [
                    "request_id": .string(change.id.uuidString.lowercased()), "action_id": .string(action.id),
                    "state": change.state.map { .string($0.rawValue) } ?? .null,
                    "comment": change.comment.map(JSONValue.string) ?? .null,
                    "photos": .array(
                        photos.map {
                            [
                                "local_id": .string($0.localID.uuidString.lowercased()),
                                "byte_size": .integer($0.byteSize),
                            ]
                        }),
                ],
                "notes": .array(notes.map(JSONValue.string)),
            ])
    }

    /// The actions made from the report the server knows as `serverID`, as `show` adds them: lines (none when
    /// there are none) and `{"actions": [{id, title, state, severity}]}`'s array.
    static func ofReport(_ serverID: String?, in workspace: Workspace) -> (lines: [String], json: JSONValue) {
        guard let serverID,
            let actions = try? workspace.actions(ofReport: serverID),
            !actions.isEmpty
        else { return ([], []) }
        let lines =
            ["", "Corrective actions: \(actions.count)"]
            + actions.map { "  \(short($0.id))  \(stateName($0.state))  \($0.severity.rawValue)  \(oneLine($0.title))" }
        let json = JSONValue.array(
            actions.map {
                [
                    "id": .string($0.id), "title": .string($0.title), "state": .string($0.state.rawValue),
                    "severity": .string($0.severity.rawValue),
                ]
            })
        return (lines, json)
    }
}
