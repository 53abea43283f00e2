import FieldTypes
import Foundation
import Models
import ServerStore

struct HistoryRoutes: RouteCapability {
    let context: ServerContext

    /// `GET /inspections?status=completed&limit=30&offset=0`: newest first;
    /// an inspector's own, everyone's for a supervisor; narrowed by `facility_id`,
    /// `inspector_id`, `template_id`, `from` and `to` (contract 1.1, on `completed_at`).
    func inspections(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let query = input.request.query
        if let status = query["status"], status != "completed" {
            throw ServerError.badRequest("'status' can only be 'completed', not '\(status.prefix(40))'")
        }
        let limit = try number(query["limit"], name: "limit", default: 30, range: 1...100)
        var reviewState: ReviewState?
        if let text = text(query["review_state"]) {
            guard let state = ReviewState.allCases.first(where: { $0.rawValue == text }) else {
                throw ServerError.badRequest(
                    "'review_state' must be awaiting_review, approved, returned or rejected, not \(OneLine.quote(text, limit: 40))"
                )
            }
            reviewState = state
        }
        let offset = try number(query["offset"], name: "offset", default: 0, range: 0...1_000_000_000)
        // An inspector's history is always their own: an `inspector_id` of someone else matches nothing.
        let filter = HistoryQuery(
            ownerID: caller.isSupervisor ? nil : caller.user.id,
            inspectorID: text(query["inspector_id"]), facilityID: text(query["facility_id"]),
            templateID: text(query["template_id"]),
            acceptedFrom: try moment(query["from"], name: "from", endOfDay: false),
            acceptedTo: try moment(query["to"], name: "to", endOfDay: true), reviewState: reviewState)
        let (rows, total) = try store.read { session in
            try session.history(filter, limit: limit, offset: offset)
        }
        let items = rows.map { report, owner in
            HistoryItem(
                serverID: report.serverID, localID: report.localID, templateID: report.templateID,
                facilityID: report.facilityID, areaID: report.areaID, score: report.score,
                followUpRequired: report.followUpRequired, parentServerID: report.parentServerID,
                completedAt: report.acceptedAt,
                inspector: HistoryItem.Inspector(id: owner.id, displayName: owner.displayName),
                reviewState: report.reviewState, revision: report.currentRevision)
        }
        return .ok(HistoryPage(items: items, total: total))
    }

    /// `GET /rollup` (supervisors only).
    func rollup(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        guard caller.isSupervisor else { throw ServerError.forbidden("the team roll-up is for supervisors only") }
        let lines = try store.read { try $0.rollup() }.map { line in
            Rollup.InspectorLine(
                id: line.user.id, displayName: line.user.displayName, completed: line.completed,
                pendingFollowUp: line.pendingFollowUp, averageScore: line.averageScore)
        }
        return .ok(Rollup(inspectors: lines, generatedAt: RFC3339.string(Date())))
    }

    /// A filter's value; empty is no filter.
    private func text(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    /// `from` or `to` as the store writes `accepted_at` (UTC, whole seconds): an RFC 3339
    /// time, or a plain `YYYY-MM-DD` read as that UTC day's first (`from`) or last
    /// (`to`) second. A fraction of a second rounds inward, so the bound still holds.
    func moment(_ value: String?, name: String, endOfDay: Bool) throws(ServerError) -> String? {
        guard let value = text(value) else { return nil }
        if RFC3339.isDay(value) { return value + (endOfDay ? "T23:59:59Z" : "T00:00:00Z") }
        guard let date = RFC3339.date(value) else {
            throw ServerError.badRequest(
                "'\(name)' must be an RFC 3339 time such as 2026-03-01T00:00:00Z, not \(OneLine.quote(value, limit: 40))"
            )
        }
        let seconds = endOfDay ? date.timeIntervalSince1970.rounded(.down) : date.timeIntervalSince1970.rounded(.up)
        return RFC3339.string(Date(timeIntervalSince1970: seconds))
    }

    private func number(_ text: String?, name: String, default value: Int, range: ClosedRange<Int>) throws(ServerError)
        -> Int
    {
        guard let text, !text.isEmpty else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw ServerError.badRequest(
                "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text.prefix(40))'"
            )
        }
        return number
    }
}
