/// Where a corrective action stands (contract 1.2): open, being worked on,
/// done (waiting to be checked), verified or cancelled. `verified` and
/// `cancelled` are final.
public enum ActionState: String, Sendable, Hashable, Codable, CaseIterable {
    case open
    case inProgress = "in_progress"
    case done
    case verified
    case cancelled

    /// Whether nothing moves an action out of this state.
    public var isFinal: Bool { self == .verified || self == .cancelled }

    /// Reads a state as written on the wire or typed (`in-progress` too); nil for anything else.
    public init?(typed: String) {
        self.init(
            rawValue: typed.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "-", with: "_"))
    }
}

/// Who a move of an action's state names (contract 1.2's table).
public enum ActionMover: Sendable, Hashable {
    /// The user the action is assigned to now.
    case assignee
    /// Supervisors and admins.
    case supervisors
    /// The inspector of the report the action's source names, unless they moved it to `done`.
    case reportInspector
}

/// One row of the table of moves: from a state to another, and who may make it.
public struct ActionMove: Sendable, Hashable {
    public let from: ActionState
    public let to: ActionState
    public let movers: Set<ActionMover>

    /// Every move an action's state may make; no other is allowed.
    public static let table: [ActionMove] = [
        ActionMove(from: .open, to: .inProgress, movers: [.assignee, .supervisors]),
        ActionMove(from: .inProgress, to: .open, movers: [.assignee, .supervisors]),
        ActionMove(from: .open, to: .done, movers: [.assignee, .supervisors]),
        ActionMove(from: .inProgress, to: .done, movers: [.assignee, .supervisors]),
        ActionMove(from: .done, to: .verified, movers: [.supervisors, .reportInspector]),
        ActionMove(from: .done, to: .open, movers: [.supervisors, .reportInspector]),
        ActionMove(from: .open, to: .cancelled, movers: [.supervisors]),
        ActionMove(from: .inProgress, to: .cancelled, movers: [.supervisors]),
    ]

    /// The row from `from` to `to`, if the table has one.
    public static func row(from: ActionState, to: ActionState) -> ActionMove? {
        table.first { $0.from == from && $0.to == to }
    }

    /// What becomes of a request to move from `current` to `wanted` by
    /// someone who is each of `caller` (the row's movers they count as):
    /// allowed, forbidden (403), or not allowed from this state (409). A row
    /// that does not name the caller is forbidden; with no row from the
    /// current state, it is a state conflict when some row ending in
    /// `wanted` names the caller (they could have, from another state), and
    /// forbidden otherwise. Moving to the state it is in has no row.
    public static func judge(from current: ActionState, to wanted: ActionState, caller: Set<ActionMover>)
        -> ActionMoveVerdict
    {
        if let row = row(from: current, to: wanted) {
            return row.movers.isDisjoint(with: caller) ? .forbidden : .allowed
        }
        let couldElsewhere = table.contains { $0.to == wanted && !$0.movers.isDisjoint(with: caller) }
        return couldElsewhere ? .notFromHere : .forbidden
    }
}

/// The outcome of `ActionMove.judge`.
public enum ActionMoveVerdict: Sendable, Hashable {
    case allowed
    /// The caller may not make this move (403).
    case forbidden
    /// Not from the action's current state (409 `ACTION_STATE`).
    case notFromHere
}
