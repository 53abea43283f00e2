import APIRoutes
import Foundation
import Models
import Networking

/// A report as `GET /reports/{server_id}` holds it, with its review (contract 1.1).
public struct ReviewedReport: Sendable, Hashable, Decodable {
    /// The report, its revision, when it was accepted and its photos.
    public var report: ServerReport
    /// The review of its current revision; nil from a server of contract 1.0.
    public var review: WireReview?
    /// The template version it was filled on, when the server says (contract 1.1).
    public var templateVersion: Int?

    /// A report with its review.
    public init(report: ServerReport, review: WireReview?, templateVersion: Int? = nil) {
        self.report = report
        self.review = review
        self.templateVersion = templateVersion
    }

    private enum Keys: String, CodingKey { case report }
    private enum ReportKeys: String, CodingKey {
        case review
        case templateVersion = "template_version"
    }

    /// Decodes `{"report": {..., "review": Review}}`; a review that cannot be read counts as none.
    public init(from decoder: any Decoder) throws {
        report = try ServerReport(from: decoder)
        let inner = try decoder.container(keyedBy: Keys.self).nestedContainer(keyedBy: ReportKeys.self, forKey: .report)
        review = (try? inner.decodeIfPresent(WireReview.self, forKey: .review)) ?? nil
        templateVersion = (try? inner.decodeIfPresent(Int.self, forKey: .templateVersion)) ?? nil
    }
}

/// What a decision came to: recorded, or refused because the report has a
/// newer revision than the one decided on (409 `REVISION_STALE`).
public enum ReviewOutcome: Sendable, Equatable {
    /// The server recorded it (or had already: the same decision again); its review now.
    case decided(WireReview)
    /// The revision decided on is not the current one; nothing was recorded.
    /// The current review, when the server sent it with the refusal.
    case stale(current: WireReview?, error: APIError)
}

/// What the review queue is narrowed to: each filter left nil is not sent.
public struct ReviewQueueFilter: Sendable, Hashable {
    /// Only reports whose current revision's review is in this state (`review_state`).
    public var state: ReviewState
    /// Only this facility's reports (`facility_id`).
    public var facilityID: String?
    /// Only this inspector's reports (`inspector_id`).
    public var inspectorID: String?

    /// A filter of one review state, optionally one facility and one inspector.
    public init(state: ReviewState = .awaitingReview, facilityID: String? = nil, inspectorID: String? = nil) {
        self.state = state
        self.facilityID = facilityID
        self.inspectorID = inspectorID
    }

    /// The query parameters, in the contract's names.
    public var queryItems: [(String, String)] {
        [("review_state", state.rawValue)]
            + [("facility_id", facilityID), ("inspector_id", inspectorID)].compactMap { name, value in
                value.map { (name, $0) }
            }
    }
}

/// A supervisor's review (contract 1.1): the queue, a report at a revision,
/// its events, and decisions.
extension APIClient {
    /// `GET /inspections?status=completed&review_state=...`: completed reports
    /// by the review state of their current revision, newest first. A 1.0
    /// server ignores the filter and sends items without `review_state`.
    public func reviewQueue(_ filter: ReviewQueueFilter, limit: Int = 30, offset: Int = 0) async throws(APIError)
        -> HistoryPage
    {
        let query = [("status", "completed"), ("limit", String(limit)), ("offset", String(offset))] + filter.queryItems
        return try await perform(Call(.inspections, query: query), as: HistoryPage.self).0
    }

    /// `GET /reports/{server_id}`, or `?revision=N` for an earlier revision
    /// (`notFound` for one the server does not hold). A server that does not
    /// take `revision` answers with its current one: compare `report.revision`.
    public func reviewedReport(serverID: String, revision: Int? = nil) async throws(APIError) -> ReviewedReport {
        let query = revision.map { [("revision", String($0))] } ?? []
        return try await perform(Call(.getReport, serverID, query: query), as: ReviewedReport.self).0
    }

    /// `GET /reports/{server_id}/events`: who did what to the report and when, oldest first.
    public func reportEvents(serverID: String) async throws(APIError) -> ReportEventsResponse {
        try await perform(Call(.reportEvents, serverID), as: ReportEventsResponse.self).0
    }

    /// `POST /reports/{server_id}/review` (supervisors and admins; `forbidden`
    /// otherwise). A 409 `REVISION_STALE` is an outcome, not an error: it
    /// carries the current review the server sent with it.
    public func decide(serverID: String, _ request: ReviewRequest) async throws(APIError) -> ReviewOutcome {
        let refusal = RefusalBody()
        do throws(APIError) {
            let response = try await send(
                .decideReview, path: APIRoute.decideReview.path(serverID), body: try encode(request),
                keepingRefusal: refusal)
            return .decided(try decode(response, as: ReviewResponse.self).review)
        } catch  where error.status == 409 {
            guard error.serverCode == nil || error.serverSaid(.revisionStale) else { throw error }
            return .stale(current: refusal.currentReview(), error: error)
        }
    }
}

extension APIClient {
    /// Sends `body` to `route` at `path` (signed in); a 409's body is kept in
    /// `refusal`, for the caller to read the current record it carries.
    func send(_ route: APIRoute, path: String, body: Data, keepingRefusal refusal: RefusalBody)
        async throws(APIError) -> HTTPResponse
    {
        let url = self.url(path)
        return try await exchange(authenticated: true) {
            (token: String?) async throws(NetworkingError) -> HTTPResponse in
            let response = try await self.transport.send(
                HTTPRequest(
                    method: HTTPMethod(route.method), url: url, headers: self.headers(token: token, json: true),
                    body: body))
            if response.status == 409 { refusal.keep(response.body) }
            return response
        }
    }
}

/// The body of a 409 answer, kept from the transport's thread for the caller to read after `exchange`.
final class RefusalBody: @unchecked Sendable {
    // The lock orders the one write on the transport's task with the read after it.
    private let lock = NSLock()
    private var body: Data?

    func keep(_ bytes: Data) { lock.withLock { body = bytes } }

    /// The `data.action` of a 409 `ACTION_STATE` envelope (contract 1.2), when readable.
    func currentAction() -> WireAction? {
        struct StateEnvelope: Decodable { let data: ActionResponse? }
        guard let body = lock.withLock({ body }) else { return nil }
        return ((try? JSONDecoder().decode(StateEnvelope.self, from: body))?.data)?.action
    }

    /// The `data.review` of the error envelope `{"ok": false, ..., "data": {"review": Review}}`, when readable.
    func currentReview() -> WireReview? {
        struct StaleEnvelope: Decodable { let data: ReviewResponse? }
        guard let body = lock.withLock({ body }) else { return nil }
        return ((try? JSONDecoder().decode(StaleEnvelope.self, from: body))?.data)?.review
    }
}
