import Foundation
import Models
import Storage

/// Which held actions a list shows.
public struct ActionFilter: Sendable {
    public var state: ActionState?
    public var facilityID: String?
    /// Only those assigned to this user id.
    public var assigneeID: String?
    /// Only open or in-progress actions due before `now`.
    public var overdue = false

    public init(state: ActionState? = nil, facilityID: String? = nil, assigneeID: String? = nil, overdue: Bool = false)
    {
        self.state = state
        self.facilityID = facilityID
        self.assigneeID = assigneeID
        self.overdue = overdue
    }
}

/// A change of an action made on this device, or a new action: waiting to
/// be sent, or refused by the server (kept, with why).
public struct WaitingActionChange: Sendable, Hashable {
    /// What was asked.
    public enum Content: Sendable, Hashable {
        case new(WireNewAction)
        case update(WireActionChange)
    }

    public var content: Content
    /// The action it changes; nil for a new one.
    public var actionID: String?
    /// Why the server refused it; nil while it waits.
    public var refusal: String?

    public init(_ content: Content, actionID: String?, refusal: String? = nil) {
        self.content = content
        self.actionID = actionID
        self.refusal = refusal
    }

    init(_ queued: QueuedActionChange) {
        switch queued.content {
        case .new(let action): content = .new(action)
        case .update(_, let change): content = .update(change)
        }
        actionID = queued.actionID
        refusal = queued.refusal
    }

    /// The id that makes it count once on the server.
    public var requestID: UUID {
        switch content {
        case .new(let action): action.id
        case .update(let change): change.id
        }
    }
}

/// Corrective actions on this device (contract 1.2): those the last sync
/// brought, and the changes made here that wait for the next one. Nothing
/// here needs the network; the server judges every change when it arrives.
extension Workspace {
    /// The held actions `filter` keeps, the soonest due first.
    public func actions(_ filter: ActionFilter) throws(AppError) -> [WireAction] {
        let now = self.now()
        return try storage { () throws(StorageError) in try store.heldActions() }.filter { action in
            if let state = filter.state, action.state != state { return false }
            if let facility = filter.facilityID, action.facilityID != facility { return false }
            if let assignee = filter.assigneeID, action.assignee?.id != assignee { return false }
            if filter.overdue && !Self.isOverdue(action, now: now) { return false }
            return true
        }
    }

    /// The held actions made from the report the server knows as `serverID`.
    public func actions(ofReport serverID: String) throws(AppError) -> [WireAction] {
        try storage { () throws(StorageError) in try store.heldActions(reportServerID: serverID) }
    }

    /// A held action by its id or a unique part of its start (`A-3f2a` or `3f2a`, at least 4 characters).
    public func action(_ reference: String) throws(AppError) -> WireAction {
        let typed = reference.trimmingCharacters(in: .whitespaces)
        if let exact = try storage({ () throws(StorageError) in try store.heldAction(id: typed) }) { return exact }
        let wanted = typed.uppercased().hasPrefix("A-") ? String(typed.dropFirst(2)) : typed
        guard wanted.count >= 4 else {
            throw AppError.usage("Give at least 4 characters of the action's id, such as 3f2a (see 'jqc actions').")
        }
        let matches = try storage { () throws(StorageError) in try store.heldActions(idStartingWith: wanted) }
        guard let first = matches.first else {
            throw AppError.notFound(
                "No action '\(oneLine(typed))' on this device; 'jqc actions' lists those the last sync brought.")
        }
        guard matches.count == 1 else {
            throw AppError.usage(
                "'\(oneLine(typed))' starts \(matches.count) actions' ids; give more of it (see 'jqc actions').")
        }
        return first
    }

    /// The changes of `actionID` made here: waiting to be sent, or refused by the server (with why).
    public func queuedChanges(of actionID: String) throws(AppError) -> [WaitingActionChange] {
        try storage { () throws(StorageError) in try store.queuedActionChanges(includingRefused: true) }
            .filter { $0.actionID == actionID }.map(WaitingActionChange.init)
    }

    /// Every change and new action waiting to be sent, in order.
    public func queuedActionChanges() throws(AppError) -> [WaitingActionChange] {
        try storage { () throws(StorageError) in try store.queuedActionChanges() }.map(WaitingActionChange.init)
    }

    /// Queues a change of `action`, to send at the next sync, with photos
    /// from `files` compressed like a report's (each checked before any is
    /// kept; the change and its photos are recorded together). The photos kept.
    @discardableResult
    public func queueChange(_ change: WireActionChange, of action: WireAction, photoFiles files: [String] = [])
        throws(AppError) -> [KeptPhoto]
    {
        guard !files.isEmpty else {
            try storage { () throws(StorageError) in try store.queueActionChange(change, on: action.id, at: now()) }
            return []
        }
        let folder = try photoFiles()
        let hold = try storage { () throws(StorageError) in try folder.holdForImport() }
        defer { hold.release() }
        var kept: [ActionPhoto] = []
        do {
            for file in files {
                let prepared = try compressPhoto(file)
                defer { prepared.discard() }
                let photoID = UUID()
                let stored = try storage { () throws(StorageError) in
                    try folder.store(contentsOf: prepared.temporary, as: photoID)
                }
                kept.append(
                    ActionPhoto(
                        localID: photoID, requestID: change.id, actionID: action.id, fileName: stored.fileName,
                        byteSize: stored.byteSize, sha256: stored.sha256))
            }
            try storage { () throws(StorageError) in
                try store.queueActionChange(change, on: action.id, at: now(), photos: kept)
            }
        } catch {
            for photo in kept { try? folder.remove(photo.fileName) }
            throw error
        }
        return kept.map { KeptPhoto(localID: $0.localID, byteSize: $0.byteSize) }
    }

    /// Queues a new action (supervisors), to send at the next sync.
    public func queueNewAction(_ action: WireNewAction) throws(AppError) {
        try storage { () throws(StorageError) in try store.queueNewAction(action, at: now()) }
    }

    /// How many held actions assigned to `userID` are open or in progress, and how many of those are overdue.
    public func actionCounts(assignedTo userID: String) throws(AppError) -> (open: Int, overdue: Int) {
        try storage { () throws(StorageError) in try store.actionCounts(assigneeID: userID, now: now()) }
    }

    /// Whether an open or in-progress action's due time has passed.
    public static func isOverdue(_ action: WireAction, now: Date) -> Bool {
        guard action.state == .open || action.state == .inProgress, let due = action.dueAt.flatMap(RFC3339.date)
        else { return false }
        return due < now
    }

    /// Who the signed-in `user` counts as in the table of moves for `action`,
    /// as far as this device knows: the assignee, a supervisor, the inspector
    /// whose report (on this device, or made from their issue) it came from.
    public func movers(_ action: WireAction, user: WireUser) throws(AppError) -> Set<ActionMover> {
        var movers: Set<ActionMover> = []
        if user.role.supervises { movers.insert(.supervisors) }
        if action.assignee?.id == user.id { movers.insert(.assignee) }
        if action.source.kind == "issue" && action.createdBy.id == user.id { movers.insert(.reportInspector) }
        if let serverID = action.source.reportServerID,
            try storage({ () throws(StorageError) in try store.hasReport(serverID: serverID) })
        {
            movers.insert(.reportInspector)
        }
        return movers
    }
}

/// A photo kept on this device with a queued change, to send after it.
public struct KeptPhoto: Sendable, Hashable {
    /// The photo's id, the server's key for it.
    public var localID: UUID
    /// Its size once compressed.
    public var byteSize: Int64
}
