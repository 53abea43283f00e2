import Foundation
import Models

extension ServerApp {
    /// `GET /inspections?status=completed&limit=30&offset=0`: newest first;
    /// an inspector's own, everyone's for a supervisor.
    func inspections(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let query = input.request.query
        if let status = query["status"], status != "completed" {
            throw ServerError.badRequest("'status' can only be 'completed', not '\(status.prefix(40))'")
        }
        let limit = try number(query["limit"], name: "limit", default: 30, range: 1...100)
        let offset = try number(query["offset"], name: "offset", default: 0, range: 0...1_000_000_000)
        let (rows, total) = try store.read { session in
            try session.history(ownerID: caller.isSupervisor ? nil : caller.user.id, limit: limit, offset: offset)
        }
        let items = rows.map { report, owner in
            HistoryItem(serverID: report.serverID, localID: report.localID, templateID: report.templateID,
                        facilityID: report.facilityID, areaID: report.areaID, score: report.score,
                        followUpRequired: report.followUpRequired, parentServerID: report.parentServerID,
                        completedAt: report.acceptedAt,
                        inspector: HistoryItem.Inspector(id: owner.id, displayName: owner.displayName))
        }
        return .ok(HistoryPage(items: items, total: total))
    }

    /// `GET /rollup` (supervisors only).
    func rollup(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        guard caller.isSupervisor else { throw ServerError.forbidden("the team roll-up is for supervisors only") }
        let lines = try store.read { try $0.rollup() }.map { line in
            Rollup.InspectorLine(id: line.user.id, displayName: line.user.displayName, completed: line.completed,
                                 pendingFollowUp: line.pendingFollowUp, averageScore: line.averageScore)
        }
        return .ok(Rollup(inspectors: lines, generatedAt: RFC3339.string(Date())))
    }

    private func number(_ text: String?, name: String, default value: Int, range: ClosedRange<Int>) throws(ServerError) -> Int {
        guard let text, !text.isEmpty else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw ServerError.badRequest("'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text.prefix(40))'")
        }
        return number
    }
}
