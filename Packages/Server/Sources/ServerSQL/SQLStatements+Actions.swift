import Foundation
import Models
import ServerStore

/// Corrective actions (contract 1.2): the action's row as it now stands,
/// its updates appended, and who besides supervisors may see it. Where the
/// next position in the order of action changes comes from is each
/// store's own (`nextActionChange`).
extension SQLStatements {
    public func action(id: String) throws(ServerError) -> StoredAction? {
        try firstRow("SELECT \(SQLRecords.actionColumns) FROM actions a WHERE a.id = ?\(lockClause)", [.text(id)])
            .map { SQLRecords.action($0) }
    }

    public func action(requestID: String) throws(ServerError) -> StoredAction? {
        try firstRow("SELECT \(SQLRecords.actionColumns) FROM actions a WHERE a.request_id = ?", [.text(requestID)])
            .map { SQLRecords.action($0) }
    }

    public func action(reportServerID: String, issueLocalID: String) throws(ServerError) -> StoredAction? {
        try firstRow(
            "SELECT \(SQLRecords.actionColumns) FROM actions a WHERE a.report_server_id = ? AND a.issue_local_id = ?",
            [.text(reportServerID), .text(issueLocalID)]
        ).map { SQLRecords.action($0) }
    }

    public func actionUpdate(id: String) throws(ServerError) -> StoredActionUpdate? {
        try firstRow("SELECT \(SQLRecords.actionUpdateColumns) FROM action_updates u WHERE u.id = ?", [.text(id)])
            .map { SQLRecords.actionUpdate($0) }
    }

    public func actionUpdates(actionID: String) throws(ServerError) -> [StoredActionUpdate] {
        try rows(
            "SELECT \(SQLRecords.actionUpdateColumns) FROM action_updates u WHERE u.action_id = ? ORDER BY u.version",
            [.text(actionID)]
        ).map { SQLRecords.actionUpdate($0) }
    }

    public func insertAction(_ action: StoredAction, viewers: [String]) throws(ServerError) -> StoredAction {
        var saved = action
        saved.change = try nextActionChange()
        try run(
            """
            INSERT INTO actions (
                id, request_id, facility_id, area_id, title, description, severity, is_internal, state, assignee_id,
                due_at, source_kind, report_server_id, issue_local_id, created_by, done_by, version, created_at,
                updated_at, change)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(saved.id), .optional(saved.requestID), .text(saved.facilityID), .optional(saved.areaID),
                .text(saved.title), .optional(saved.description), .text(saved.severity.rawValue),
                .flag(saved.isInternal), .text(saved.state.rawValue), .optional(saved.assigneeID),
                .optional(saved.dueAt), .text(saved.sourceKind), .optional(saved.reportServerID),
                .optional(saved.issueLocalID), .text(saved.createdByID), .optional(saved.doneByID),
                .count(saved.version), .text(saved.createdAt), .text(saved.updatedAt), .integer(saved.change),
            ])
        try addActionViewers(saved.id, viewers)
        return saved
    }

    public func recordActionUpdate(_ update: StoredActionUpdate, action: StoredAction, viewers: [String])
        throws(ServerError) -> StoredAction
    {
        var saved = action
        saved.change = try nextActionChange()
        try run(
            """
            INSERT INTO action_updates (
                id, action_id, author_id, at, state, comment, assignee_set, assignee_id, due_set, due_at, version)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(update.id), .text(update.actionID), .text(update.authorID), .text(update.at),
                .optional(update.state?.rawValue), .optional(update.comment), .flag(update.changesAssignee),
                .optional(update.assigneeID), .flag(update.changesDue), .optional(update.dueAt),
                .count(update.version),
            ])
        try run(
            """
            UPDATE actions SET state = ?, assignee_id = ?, due_at = ?, done_by = ?, version = ?, updated_at = ?,
                change = ?
            WHERE id = ?
            """,
            [
                .text(saved.state.rawValue), .optional(saved.assigneeID), .optional(saved.dueAt),
                .optional(saved.doneByID), .count(saved.version), .text(saved.updatedAt), .integer(saved.change),
                .text(saved.id),
            ])
        try addActionViewers(saved.id, viewers)
        return saved
    }

    public func actions(after: Int64, viewerID: String?, limit: Int) throws(ServerError) -> [StoredAction] {
        guard let viewerID else {
            return try rows(
                "SELECT \(SQLRecords.actionColumns) FROM actions a WHERE a.change > ? ORDER BY a.change LIMIT ?",
                [.integer(after), .count(limit)]
            ).map { SQLRecords.action($0) }
        }
        return try rows(
            """
            SELECT \(SQLRecords.actionColumns) FROM action_viewers v JOIN actions a ON a.id = v.action_id
            WHERE v.user_id = ? AND a.change > ? ORDER BY a.change LIMIT ?
            """, [.text(viewerID), .integer(after), .count(limit)]
        ).map { SQLRecords.action($0) }
    }

    public func clientActions(after: Int64, clientID: String, limit: Int) throws(ServerError) -> [StoredAction] {
        try rows(
            """
            SELECT \(SQLRecords.actionColumns) FROM actions a JOIN client_facilities c ON c.facility_id = a.facility_id
            WHERE c.user_id = ? AND a.is_internal = ? AND a.change > ? ORDER BY a.change LIMIT ?
            """, [.text(clientID), .flag(false), .integer(after), .count(limit)]
        ).map { SQLRecords.action($0) }
    }

    public func isActionViewer(actionID: String, userID: String) throws(ServerError) -> Bool {
        try firstRow(
            "SELECT 1 AS found FROM action_viewers WHERE action_id = ? AND user_id = ?",
            [.text(actionID), .text(userID)]
        ) != nil
    }

    public func actionList(_ query: ActionListQuery, limit: Int, offset: Int) throws(ServerError) -> [StoredAction] {
        let (conditions, values) = Self.conditions(query, withState: true)
        return try rows(
            """
            SELECT \(SQLRecords.actionColumns) FROM actions a \(conditions)
            ORDER BY (a.due_at IS NULL), a.due_at, a.change LIMIT ? OFFSET ?
            """, values + [.count(limit), .count(offset)]
        ).map { SQLRecords.action($0) }
    }

    public func actionStateCounts(_ query: ActionListQuery) throws(ServerError) -> [ActionState: Int] {
        var (sql, values) = Self.countsFromSummary(query)
        if sql.isEmpty {
            let (conditions, scanned) = Self.conditions(query, withState: false)
            sql = "SELECT a.state AS state, COUNT(*) AS n FROM actions a \(conditions) GROUP BY a.state"
            values = scanned
        }
        var counts: [ActionState: Int] = [:]
        for row in try rows(sql, values) {
            if let state = row.text("state").flatMap(ActionState.init(rawValue:)) {
                counts[state] = Int(row.integer("n") ?? 0)
            }
        }
        return counts
    }

    public func actions(reportServerID: String) throws(ServerError) -> [StoredAction] {
        try rows(
            "SELECT \(SQLRecords.actionColumns) FROM actions a WHERE a.report_server_id = ? ORDER BY a.created_at, a.id",
            [.text(reportServerID)]
        ).map { SQLRecords.action($0) }
    }

    /// The `WHERE` of a list of actions and its values, in order.
    /// The counts per state from the summary the database keeps with every action written
    /// (`action_counts`), when the query filters only by site, severity and assignee; empty otherwise.
    private static func countsFromSummary(_ query: ActionListQuery) -> (String, [SQLParameter]) {
        guard query.viewerID == nil, query.clientID == nil, query.overdueAt == nil, !query.unfinishedOnly else {
            return ("", [])
        }
        var clauses: [String] = []
        var values: [SQLParameter] = []
        for (column, value) in [
            ("facility_id", query.facilityID), ("assignee_id", query.assigneeID),
            ("severity", query.severity?.rawValue),
        ] {
            if let value {
                clauses.append("\(column) = ?")
                values.append(.text(value))
            }
        }
        let conditions = clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
        return ("SELECT state, CAST(SUM(n) AS bigint) AS n FROM action_counts \(conditions) GROUP BY state", values)
    }

    private static func conditions(_ query: ActionListQuery, withState: Bool) -> (String, [SQLParameter]) {
        var clauses: [String] = []
        var values: [SQLParameter] = []
        if let viewer = query.viewerID {
            clauses.append("EXISTS (SELECT 1 FROM action_viewers v WHERE v.action_id = a.id AND v.user_id = ?)")
            values.append(.text(viewer))
        }
        if let client = query.clientID {
            clauses.append(
                "a.facility_id IN (SELECT c.facility_id FROM client_facilities c WHERE c.user_id = ?) AND a.is_internal = ?"
            )
            values += [.text(client), .flag(false)]
        }
        if withState, let state = query.state {
            clauses.append("a.state = ?")
            values.append(.text(state.rawValue))
        }
        for (column, value) in [
            ("a.facility_id", query.facilityID), ("a.assignee_id", query.assigneeID),
            ("a.severity", query.severity?.rawValue),
        ] {
            if let value {
                clauses.append("\(column) = ?")
                values.append(.text(value))
            }
        }
        if query.unfinishedOnly || query.overdueAt != nil { clauses.append("a.state IN ('open', 'in_progress')") }
        if let now = query.overdueAt {
            clauses.append("a.due_at IS NOT NULL AND a.due_at < ?")
            values.append(.text(now))
        }
        return (clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND "), values)
    }

    /// Lets each of `viewers` see the action (kept: once assigned, always seen).
    private func addActionViewers(_ actionID: String, _ viewers: [String]) throws(ServerError) {
        for viewer in Set(viewers) {
            try run(
                "INSERT INTO action_viewers (action_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                [.text(actionID), .text(viewer)])
        }
    }

    public func actionPhoto(localID: UUID) throws(ServerError) -> StoredActionPhoto? {
        try firstRow(
            "SELECT \(SQLRecords.actionPhotoColumns) FROM action_photos WHERE local_id = ?", [.id(localID)]
        ).flatMap { SQLRecords.actionPhoto($0) }
    }

    public func actionPhotos(actionID: String) throws(ServerError) -> [StoredActionPhoto] {
        try rows(
            "SELECT \(SQLRecords.actionPhotoColumns) FROM action_photos WHERE action_id = ? ORDER BY position",
            [.text(actionID)]
        ).compactMap { SQLRecords.actionPhoto($0) }
    }

    public func insertActionPhoto(_ photo: StoredActionPhoto, uploadedBy: String, action: StoredAction)
        throws(ServerError) -> StoredAction
    {
        var saved = action
        saved.change = try nextActionChange()
        try run(
            """
            INSERT INTO action_photos (local_id, action_id, update_id, sha256, byte_size, uploaded_by, created_at, position)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .id(photo.localID), .text(photo.actionID), .optional(photo.updateID), .text(photo.sha256),
                .integer(photo.byteSize), .text(uploadedBy), .stamp(Date()), .integer(saved.change),
            ])
        try run("UPDATE actions SET change = ? WHERE id = ?", [.integer(saved.change), .text(saved.id)])
        return saved
    }
}
