import APIRoutes
import Foundation
import Models
import Networking

/// Corrective actions (contract 1.2): the feed of the actions the caller may
/// see, one action, and the two writes. The device calls these only on a
/// server whose sync answers carry contract 1.2 or later.
extension APIClient {
    /// The most `GET /actions` sends in one page.
    public static let actionsPageLimit = 100

    /// `GET /actions?since=&limit=`: every action the caller may see changed after `cursor`.
    public func actions(since cursor: String? = nil, limit: Int = APIClient.actionsPageLimit) async throws(APIError)
        -> ActionsResponse
    {
        var query: [(String, String)] = []
        if let cursor { query.append(("since", cursor)) }
        query.append(("limit", String(min(max(limit, 1), Self.actionsPageLimit))))
        return try await perform(Call(.actionFeed, query: query), as: ActionsResponse.self).0
    }

    /// `GET /actions/{id}`.
    public func action(id: String) async throws(APIError) -> WireAction {
        try await perform(Call(.getAction, id), as: ActionResponse.self).0.action
    }

    /// `POST /actions` (supervisors and admins): the action made, or the one the same id made before.
    public func createAction(_ action: WireNewAction) async throws(APIError) -> WireAction {
        try await perform(Call(.createAction, body: try encode(action)), as: ActionResponse.self).0.action
    }

    /// `POST /actions/{id}/updates`: the action as it now stands. A 409
    /// `ACTION_STATE` is an outcome, not an error: it carries the action as
    /// the server holds it, so the person sees what happened meanwhile.
    public func updateAction(id: String, _ change: WireActionChange) async throws(APIError) -> ActionUpdateOutcome {
        let refusal = RefusalBody()
        do throws(APIError) {
            let response = try await send(
                .updateAction, path: APIRoute.updateAction.path(id), body: try encode(change), keepingRefusal: refusal)
            return .recorded(try decode(response, as: ActionResponse.self).action)
        } catch  where error.status == 409 && error.serverSaid(.actionState) {
            return .stateRefused(current: refusal.currentAction(), error: error)
        }
    }
}

/// How an update of an action ended.
public enum ActionUpdateOutcome: Sendable {
    /// Recorded (or recorded before, under the same id): the action as it now stands.
    case recorded(WireAction)
    /// 409 `ACTION_STATE`: the move is not allowed from the action's state now; the action as the server holds it.
    case stateRefused(current: WireAction?, error: APIError)
}
