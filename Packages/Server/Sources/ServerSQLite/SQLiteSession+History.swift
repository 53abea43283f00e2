import Foundation
import ServerSQL
import ServerStore

/// The team roll-up, and how SQLite words a flagged report (an integer) and
/// sorts the lowest scores first (NULLs last).
extension SQLiteSession {
    static let openFollowUps = "r.follow_up_required = 1 AND r.follow_up_cleared_by IS NULL"
    static let failedOnly = "r.passed = 0"

    static func historyOrder(_ order: HistoryOrder) -> String {
        switch order {
        case .newest: return "r.seq DESC"
        case .oldest: return "r.seq ASC"
        case .lowestScore: return "r.score IS NULL, r.score ASC, r.seq DESC"
        case .mostDeficiencies: return "r.deficiency_count DESC, r.seq DESC"
        }
    }

    func rollup() throws(ServerError) -> [RollupLine] {
        try users(role: .inspector).map { user throws(ServerError) in
            let row = try firstRow(
                """
                SELECT COUNT(*) AS completed,
                       COALESCE(SUM(follow_up_required = 1 AND follow_up_cleared_by IS NULL), 0) AS pending,
                       AVG(score) AS average
                FROM reports WHERE owner_id = ?
                """, [.text(user.id)])
            return RollupLine(
                user: user, completed: Int(row?.integer("completed") ?? 0),
                pendingFollowUp: Int(row?.integer("pending") ?? 0), averageScore: row?.real("average"))
        }
    }
}
