import Foundation
import Models
import ServerStore

/// History pages and the counts by review state; how a report is flagged
/// and how the lowest scores sort are each store's own (`openFollowUps`,
/// `historyOrder`).
extension SQLStatements {
    public func history(_ filter: HistoryQuery, limit: Int, offset: Int) throws(ServerError) -> (
        [(StoredReport, StoredUser)], Int
    ) {
        let (where_, arguments) = Self.whereClause(filter)
        let total = try firstRow("SELECT COUNT(*) AS total FROM reports r \(where_)", arguments)?.integer("total") ?? 0
        return (try reportsPage(filter, limit: limit, offset: offset), Int(total))
    }

    /// The page is chosen from the reports alone, and only its rows are joined to their owners:
    /// a deep offset skips reports without joining each one it skips.
    public func reportsPage(_ filter: HistoryQuery, limit: Int, offset: Int) throws(ServerError) -> [(
        StoredReport, StoredUser
    )] {
        let (where_, arguments) = Self.whereClause(filter)
        let order = Self.historyOrder(filter.order)
        let reportColumns = SQLRecords.reportColumns.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .map { "r.\($0) AS \($0)" }
            .joined(separator: ", ")
        let page = try rows(
            """
            SELECT \(reportColumns), u.id AS owner_id_, u.username AS owner_username, u.role AS owner_role,
                   u.display_name AS owner_display_name, u.password_hash AS owner_password_hash
            FROM (SELECT * FROM reports r \(where_) ORDER BY \(order) LIMIT ? OFFSET ?) r
            JOIN users u ON u.id = r.owner_id ORDER BY \(order)
            """, arguments + [.count(limit), .count(offset)])
        return page.compactMap { row -> (StoredReport, StoredUser)? in
            guard let report = SQLRecords.report(row), let owner = Self.owner(row) else { return nil }
            return (report, owner)
        }
    }

    public func reviewStateCounts(_ filter: HistoryQuery) throws(ServerError) -> [ReviewState: Int] {
        var unfiltered = filter
        unfiltered.reviewState = nil
        let (where_, arguments) = Self.whereClause(unfiltered)
        var counts: [ReviewState: Int] = [:]
        for row in try rows(
            "SELECT r.review_state AS state, COUNT(*) AS n FROM reports r \(where_) GROUP BY r.review_state", arguments)
        {
            if let state = row.text("state").flatMap(ReviewState.init(rawValue:)) {
                counts[state] = Int(row.integer("n") ?? 0)
            }
        }
        return counts
    }

    /// `WHERE ...` of a query with its arguments: column names and operators
    /// come from `HistoryQuery`, never from the request; values are parameters.
    private static func whereClause(_ filter: HistoryQuery) -> (String, [SQLParameter]) {
        let conditions = filter.conditions
        var parts = conditions.map { "\($0.column) \($0.op) ?" }
        if filter.openFollowUps { parts.append(Self.openFollowUps) }
        if filter.failedOnly { parts.append(Self.failedOnly) }
        return (parts.isEmpty ? "" : "WHERE " + parts.joined(separator: " AND "), conditions.map { .text($0.value) })
    }

    /// The owner joined to a history row.
    private static func owner(_ row: ResultRow) -> StoredUser? {
        guard let id = row.text("owner_id_"), let name = row.text("owner_username"),
            let role = row.text("owner_role").flatMap(UserRole.init(rawValue:)),
            let display = row.text("owner_display_name"), let hash = row.text("owner_password_hash")
        else { return nil }
        return StoredUser(id: id, username: name, role: role, displayName: display, passwordHash: hash)
    }
}
