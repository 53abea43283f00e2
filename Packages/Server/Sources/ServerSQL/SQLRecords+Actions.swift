import Models
import ServerStore

/// Corrective actions and their updates as rows hold them.
extension SQLRecords {
    /// The columns an action is read from (table `a`).
    public static let actionColumns = """
        a.id, a.request_id, a.facility_id, a.area_id, a.title, a.description, a.severity, a.is_internal, a.state,
        a.assignee_id, a.due_at, a.source_kind, a.report_server_id, a.issue_local_id, a.created_by, a.done_by,
        a.version, a.created_at, a.updated_at, a.change
        """

    /// The columns an update is read from (table `u`).
    public static let actionUpdateColumns = """
        u.id, u.action_id, u.author_id, u.at, u.state, u.comment, u.assignee_set, u.assignee_id, u.due_set, u.due_at,
        u.version
        """

    /// The action in `row`.
    public static func action(_ row: some SQLRow) -> StoredAction {
        StoredAction(
            id: row.text("id") ?? "", requestID: row.text("request_id"), facilityID: row.text("facility_id") ?? "",
            areaID: row.text("area_id"), title: row.text("title") ?? "", description: row.text("description"),
            severity: row.text("severity").flatMap(IssueSeverity.init(rawValue:)) ?? .medium,
            isInternal: row.flag("is_internal") ?? false,
            state: row.text("state").flatMap(ActionState.init(rawValue:)) ?? .open,
            assigneeID: row.text("assignee_id"), dueAt: row.text("due_at"), sourceKind: row.text("source_kind") ?? "",
            reportServerID: row.text("report_server_id"), issueLocalID: row.text("issue_local_id"),
            createdByID: row.text("created_by") ?? "", doneByID: row.text("done_by"),
            version: Int(row.integer("version") ?? 1), createdAt: row.text("created_at") ?? "",
            updatedAt: row.text("updated_at") ?? "", change: row.integer("change") ?? 0)
    }

    /// The update in `row`.
    public static func actionUpdate(_ row: some SQLRow) -> StoredActionUpdate {
        StoredActionUpdate(
            id: row.text("id") ?? "", actionID: row.text("action_id") ?? "", authorID: row.text("author_id") ?? "",
            at: row.text("at") ?? "", state: row.text("state").flatMap(ActionState.init(rawValue:)),
            comment: row.text("comment"), changesAssignee: row.flag("assignee_set") ?? false,
            assigneeID: row.text("assignee_id"), changesDue: row.flag("due_set") ?? false, dueAt: row.text("due_at"),
            version: Int(row.integer("version") ?? 1))
    }
}
