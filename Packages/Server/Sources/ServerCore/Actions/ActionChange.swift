import FieldTypes
import Models
import ServerStore

/// Who a caller counts as for one action: the table's movers they are, and
/// whether they were the one who moved it to `done` (who may then neither
/// verify nor reopen it).
struct ActionMovers: Sendable, Equatable {
    var movers: Set<ActionMover>
    var movedItToDone: Bool
    /// For a client, whether the action is their own request (they may comment on those only).
    var client: Client? = nil

    struct Client: Sendable, Equatable {
        var ownRequest: Bool
    }

    var isSupervisor: Bool { movers.contains(.supervisors) }
}

/// One update of an action as a value: judged against the table of moves,
/// then applied, making the action's next version and the update's record.
enum ActionChange {
    /// The verdict on an update a caller may make: allowed, or not from the
    /// action's current state (409 `ACTION_STATE`, with why). One the caller
    /// may not make at all throws 403.
    enum Verdict: Sendable, Equatable {
        case allowed
        case notFromHere(String)
    }

    /// Judges `request` on `action` by someone who is `who`: first what they
    /// may not do at all (403), then what the current state does not allow (409).
    static func judge(_ request: ActionUpdateRequest, on action: StoredAction, by who: ActionMovers)
        throws(ServerError) -> Verdict
    {
        if let client = who.client {
            guard request.state == nil, client.ownRequest else {
                throw ServerError.forbidden(
                    client.ownRequest
                        ? "a client comments on their requests; the organisation moves them"
                        : "a client comments only on their own requests")
            }
        }
        if (request.assignee.isGiven || request.dueAt.isGiven) && !who.isSupervisor {
            throw ServerError.forbidden("only supervisors and admins may assign an action or set when it is due")
        }
        if let wanted = request.state {
            // Whoever moved it to done does not check their own work.
            let ownWork = action.state == .done && who.movedItToDone && (wanted == .verified || wanted == .open)
            switch ActionMove.judge(from: action.state, to: wanted, caller: ownWork ? [] : who.movers) {
            case .allowed: break
            case .forbidden:
                throw ServerError.forbidden(
                    ownWork
                        ? "you marked this action done: someone else verifies or reopens it"
                        : "you may not move this action from \(action.state.rawValue) to \(wanted.rawValue)")
            case .notFromHere:
                return .notFromHere(
                    "action '\(action.id)' is \(action.state.rawValue) now; it cannot move to \(wanted.rawValue) from there"
                )
            }
        }
        if action.state.isFinal && (request.assignee.isGiven || request.dueAt.isGiven) {
            return .notFromHere("action '\(action.id)' is \(action.state.rawValue): its assignee and due time stay")
        }
        return .allowed
    }

    /// The action after `request` (its next version), and the record of the update.
    static func apply(
        _ request: ActionUpdateRequest, to action: StoredAction, assigneeID: String?, by authorID: String, at: String
    ) -> (StoredAction, StoredActionUpdate) {
        var next = action
        next.version += 1
        next.updatedAt = at
        if let state = request.state {
            next.state = state
            next.doneByID = state == .done ? authorID : nil
        }
        switch request.assignee {
        case .absent: break
        case .cleared: next.assigneeID = nil
        case .set: next.assigneeID = assigneeID
        }
        switch request.dueAt {
        case .absent: break
        case .cleared: next.dueAt = nil
        case .set(let time): next.dueAt = time
        }
        let update = StoredActionUpdate(
            id: request.id, actionID: action.id, authorID: authorID, at: at, state: request.state,
            comment: request.comment, changesAssignee: request.assignee.isGiven,
            assigneeID: request.assignee.isGiven ? next.assigneeID : nil, changesDue: request.dueAt.isGiven,
            dueAt: request.dueAt.isGiven ? next.dueAt : nil, version: next.version)
        return (next, update)
    }
}
