import Foundation
import Models

/// A corrective action as the store keeps it (contract 1.2). People are
/// kept by user id; the wire names them by id, user name and display name.
public struct StoredAction: Sendable, Equatable {
    /// The server's id: made by the server, not guessable.
    public var id: String
    /// The `id` of the `POST /actions` that made it (its idempotency key); nil for one made from an issue.
    public var requestID: String?
    public var facilityID: String
    public var areaID: String?
    public var title: String
    public var description: String?
    /// `low`, `medium`, `high` or `critical`.
    public var severity: IssueSeverity
    /// Hidden from clients; set only by supervisors and admins.
    public var isInternal: Bool
    public var state: ActionState
    /// The user it is assigned to, by id.
    public var assigneeID: String?
    /// RFC 3339.
    public var dueAt: String?
    /// `issue`, `supervisor` or `client`.
    public var sourceKind: String
    public var reportServerID: String?
    public var issueLocalID: String?
    /// The user who made it (for one made from an issue, the report's inspector).
    public var createdByID: String
    /// The user who last moved it to `done`: they may not verify or reopen it.
    public var doneByID: String?
    /// 1 when made, one more with every update.
    public var version: Int
    /// RFC 3339, the server's clock.
    public var createdAt: String
    public var updatedAt: String
    /// Its position in the order of action changes.
    public var change: Int64

    /// Makes an action record.
    public init(
        id: String, requestID: String?, facilityID: String, areaID: String?, title: String, description: String?,
        severity: IssueSeverity, isInternal: Bool, state: ActionState, assigneeID: String?, dueAt: String?,
        sourceKind: String, reportServerID: String?, issueLocalID: String?, createdByID: String,
        doneByID: String? = nil, version: Int, createdAt: String, updatedAt: String, change: Int64 = 0
    ) {
        self.id = id
        self.requestID = requestID
        self.facilityID = facilityID
        self.areaID = areaID
        self.title = title
        self.description = description
        self.severity = severity
        self.isInternal = isInternal
        self.state = state
        self.assigneeID = assigneeID
        self.dueAt = dueAt
        self.sourceKind = sourceKind
        self.reportServerID = reportServerID
        self.issueLocalID = issueLocalID
        self.createdByID = createdByID
        self.doneByID = doneByID
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.change = change
    }
}

/// One recorded update of an action: what it changed, by whom, when.
public struct StoredActionUpdate: Sendable, Equatable {
    /// The sender's id for it (a UUID, lower case): the same id twice records once.
    public var id: String
    public var actionID: String
    public var authorID: String
    /// RFC 3339, the server's clock.
    public var at: String
    public var state: ActionState?
    public var comment: String?
    /// Whether it changed the assignee; `assigneeID` nil then means unassigned.
    public var changesAssignee: Bool
    public var assigneeID: String?
    /// Whether it changed the due time; `dueAt` nil then means cleared.
    public var changesDue: Bool
    public var dueAt: String?
    /// The action's version once this update was recorded.
    public var version: Int

    /// Makes an update record.
    public init(
        id: String, actionID: String, authorID: String, at: String, state: ActionState?, comment: String?,
        changesAssignee: Bool, assigneeID: String?, changesDue: Bool, dueAt: String?, version: Int
    ) {
        self.id = id
        self.actionID = actionID
        self.authorID = authorID
        self.at = at
        self.state = state
        self.comment = comment
        self.changesAssignee = changesAssignee
        self.assigneeID = assigneeID
        self.changesDue = changesDue
        self.dueAt = dueAt
        self.version = version
    }
}

/// What a list of actions asks for (the console's actions page, a site's
/// open actions): every filter optional.
public struct ActionListQuery: Sendable, Equatable {
    /// Only actions this user may see (besides supervisors, who see all: nil).
    public var viewerID: String?
    /// Only actions this client sees: at their facilities, not internal.
    public var clientID: String?
    public var state: ActionState?
    public var facilityID: String?
    public var assigneeID: String?
    public var severity: IssueSeverity?
    /// Only open or in-progress actions due before this RFC 3339 time.
    public var overdueAt: String?
    /// Only open or in-progress actions.
    public var unfinishedOnly = false

    /// A query of every action `viewerID` may see.
    public init(viewerID: String? = nil) { self.viewerID = viewerID }
}

/// A photo of an action, or of one of its updates, as the server keeps it.
public struct StoredActionPhoto: Sendable, Equatable {
    /// The id the device made for it.
    public var localID: UUID
    public var actionID: String
    /// The update it belongs to; nil for the action's own photos.
    public var updateID: String?
    public var sha256: String
    public var byteSize: Int64

    /// Makes a photo record.
    public init(localID: UUID, actionID: String, updateID: String?, sha256: String, byteSize: Int64) {
        self.localID = localID
        self.actionID = actionID
        self.updateID = updateID
        self.sha256 = sha256
        self.byteSize = byteSize
    }
}
