import Foundation
import ServerSQL
import ServerStore

/// The team roll-up in one statement, and how PostgreSQL words a flagged
/// report (a boolean) and sorts the lowest scores first (NULLS LAST).
extension PostgresSession {
    static let openFollowUps = "r.follow_up_required AND r.follow_up_cleared_by IS NULL"
    static let failedOnly = "r.passed = false"

    static func historyOrder(_ order: HistoryOrder) -> String {
        switch order {
        case .newest: return "r.seq DESC"
        case .oldest: return "r.seq ASC"
        case .lowestScore: return "r.score ASC NULLS LAST, r.seq DESC"
        case .mostDeficiencies: return "r.deficiency_count DESC, r.seq DESC"
        }
    }

    func rollup() throws(ServerError) -> [RollupLine] {
        try rows(
            """
            SELECT u.id AS id, u.username AS username, u.role AS role, u.display_name AS display_name,
                   u.password_hash AS password_hash,
                   COUNT(r.server_id) AS completed,
                   COUNT(r.server_id) FILTER (WHERE r.follow_up_required AND r.follow_up_cleared_by IS NULL) AS pending,
                   AVG(r.score) AS average
            FROM users u LEFT JOIN reports r ON r.owner_id = u.id
            WHERE u.role = 'inspector' GROUP BY u.id ORDER BY u.username
            """
        ).compactMap { row in
            guard let user = SQLRecords.user(row) else { return nil }
            return RollupLine(
                user: user, completed: Int(row.integer("completed") ?? 0),
                pendingFollowUp: Int(row.integer("pending") ?? 0), averageScore: row.real("average"))
        }
    }
}
