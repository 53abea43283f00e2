import Foundation
import Models
import PostgreSQL
import ServerStore

/// History pages and the team roll-up.
extension PostgresSession {
    func history(_ filter: HistoryQuery, limit: Int, offset: Int) throws(ServerError) -> (
        [(StoredReport, StoredUser)], Int
    ) {
        let (where_, arguments) = Self.whereClause(filter)
        let total = try query("SELECT COUNT(*) AS total FROM reports r \(where_)", arguments).first?.int("total") ?? 0
        return (try reportsPage(filter, limit: limit, offset: offset), Int(total))
    }

    /// The page is chosen from the reports alone, and only its rows are joined to their owners:
    /// a deep offset skips reports without joining each one it skips.
    func reportsPage(_ filter: HistoryQuery, limit: Int, offset: Int) throws(ServerError) -> [(
        StoredReport, StoredUser
    )] {
        let (where_, arguments) = Self.whereClause(filter)
        let order = Self.orderClause(filter.order)
        let reportColumns = Self.reportColumns.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .map { "r.\($0) AS \($0)" }
            .joined(separator: ", ")
        let page = arguments.count
        let rows = try query(
            """
            SELECT \(reportColumns), u.id AS owner_id, u.username AS owner_username, u.role AS owner_role,
                   u.display_name AS owner_display_name, u.password_hash AS owner_password_hash
            FROM (SELECT * FROM reports r \(where_) ORDER BY \(order) LIMIT $\(page + 1) OFFSET $\(page + 2)) r
            JOIN users u ON u.id = r.owner_id ORDER BY \(order)
            """, arguments + [.integer(Int64(limit)), .integer(Int64(offset))])
        let list = rows.compactMap { row -> (StoredReport, StoredUser)? in
            guard let report = Self.report(row),
                let owner = Self.user(row, prefix: "owner_")
            else { return nil }
            return (report, owner)
        }
        return list
    }

    func reviewStateCounts(_ filter: HistoryQuery) throws(ServerError) -> [ReviewState: Int] {
        var unfiltered = filter
        unfiltered.reviewState = nil
        let (where_, arguments) = Self.whereClause(unfiltered)
        var counts: [ReviewState: Int] = [:]
        for row in try query(
            "SELECT r.review_state AS state, COUNT(*) AS n FROM reports r \(where_) GROUP BY r.review_state", arguments)
        {
            if let state = row.string("state").flatMap(ReviewState.init(rawValue:)) {
                counts[state] = Int(row.int("n") ?? 0)
            }
        }
        return counts
    }

    /// `WHERE ...` of a query with its arguments: column names and operators
    /// come from `HistoryQuery`, never from the request; values are `$n` parameters.
    private static func whereClause(_ filter: HistoryQuery) -> (String, [PostgresValue]) {
        let conditions = filter.conditions
        var parts = conditions.enumerated().map { "\($0.element.column) \($0.element.op) $\($0.offset + 1)" }
        if filter.openFollowUps { parts.append("r.follow_up_required AND r.follow_up_cleared_by IS NULL") }
        return (parts.isEmpty ? "" : "WHERE " + parts.joined(separator: " AND "), conditions.map { .text($0.value) })
    }

    private static func orderClause(_ order: HistoryOrder) -> String {
        switch order {
        case .newest: return "r.seq DESC"
        case .oldest: return "r.seq ASC"
        case .lowestScore: return "r.score ASC NULLS LAST, r.seq DESC"
        }
    }

    func rollup() throws(ServerError) -> [RollupLine] {
        let rows = try query(
            """
            SELECT u.id AS id, u.username AS username, u.role AS role, u.display_name AS display_name,
                   u.password_hash AS password_hash,
                   COUNT(r.server_id) AS completed,
                   COUNT(r.server_id) FILTER (WHERE r.follow_up_required AND r.follow_up_cleared_by IS NULL) AS pending,
                   AVG(r.score) AS average
            FROM users u LEFT JOIN reports r ON r.owner_id = u.id
            WHERE u.role = 'inspector' GROUP BY u.id ORDER BY u.username
            """)
        return rows.compactMap { row in
            guard let user = Self.user(row) else { return nil }
            return RollupLine(
                user: user, completed: Int(row.int("completed") ?? 0), pendingFollowUp: Int(row.int("pending") ?? 0),
                averageScore: row.double("average"))
        }
    }
}
