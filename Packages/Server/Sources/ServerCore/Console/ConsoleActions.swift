import FieldTypes
import Foundation
import Models
import ServerStore

/// The console's corrective actions: the list (filtered, the soonest due
/// first, counts per state), an action's page with its thread, and the
/// forms of the moves the viewer may make, recorded by the same code as
/// `POST /actions/{id}/updates` (`ActionRoutes.recordUpdate`).
extension ConsoleRoutes {
    /// Actions on one page of the list.
    static let actionPageSize = 50

    /// `GET /console/actions?state=&facility=&assignee=&severity=&overdue=1&page=`.
    func consoleActions(_ input: ConsoleInput) throws(ServerError) -> ConsolePage {
        let caller = try input.requireCaller()
        var query = ActionListQuery(
            viewerID: caller.isSupervisor || caller.user.role == .client ? nil : caller.user.id)
        if caller.user.role == .client { query.clientID = caller.user.id }
        if let text = input.query("state") {
            guard let state = ActionState(rawValue: text) else {
                throw ServerError.badRequest("there is no action state \(OneLine.quote(text, limit: 40))")
            }
            query.state = state
        }
        if let text = input.query("severity") {
            guard let severity = IssueSeverity(rawValue: text) else {
                throw ServerError.badRequest("there is no severity \(OneLine.quote(text, limit: 40))")
            }
            query.severity = severity
        }
        query.facilityID = input.query("facility")
        query.assigneeID = input.query("assignee")
        if input.query("overdue") != nil { query.overdueAt = RFC3339.string(Date()) }
        let pageText = input.query("page") ?? "1"
        guard let page = Int(pageText), (1...10_000).contains(page) else {
            throw ServerError.badRequest("'page' must be a whole number from 1 to 10000")
        }
        let listing = try store.read { session -> ConsoleActionListing in
            var facilities = try session.managedFacilities()
            if let scope = try ClientScope.of(caller, gate: config.clientsSee, in: session) {
                facilities = facilities.filter { scope.sees(facility: $0.facility.id) }
            }
            return ConsoleActionListing(
                actions: try session.actionList(
                    query, limit: Self.actionPageSize, offset: (page - 1) * Self.actionPageSize),
                counts: try session.actionStateCounts(query), facilities: facilities,
                people: try session.allUsers())
        }
        let view = ConsoleActionView(listing: listing, now: Date())
        let html =
            view.counts(input, query) + view.filters(input, query, showAssignee: caller.isSupervisor)
            + view.table() + view.pager(input, page: page)
        let newRequest =
            caller.user.role == .client
            ? "<p><a class=\"button\" id=\"request-service\" href=\"\(Self.consolePath)/requests/new\">Request service</a></p>\n"
            : ""
        return ConsolePage(
            title: caller.isSupervisor
                ? "Actions" : caller.user.role == .client ? "Requests and actions" : "My actions",
            body: ConsoleLayout.notice(Self.noticeText(input)) + newRequest + html, viewer: input.viewer)
    }

    /// `GET /console/actions/{id}/photos/{local_id}`: a photo of the action or
    /// of its update, to whoever may see the action (anyone else: 404).
    func consoleActionPhoto(_ input: ConsoleInput, actionID: String, photo text: String) throws(ServerError)
        -> ConsoleReply
    {
        let caller = try input.requireCaller()
        let missing = ServerError.notFound("there is no such photo")
        guard let localID = UUID(uuidString: text) else { throw missing }
        let routes = ActionRoutes(context: context)
        let photo = try store.read { session -> StoredActionPhoto? in
            guard let action = try session.action(id: actionID), try routes.visible(action, to: caller, in: session)
            else { return nil }
            return try session.actionPhoto(localID: localID)
        }
        guard let photo, photo.actionID == actionID,
            let descriptor = try photos.open(sha256: photo.sha256, byteSize: photo.byteSize)
        else { throw missing }
        return .photo(descriptor: descriptor, byteSize: photo.byteSize)
    }

    /// `GET /console/actions/{id}`: the action, its thread, and the forms the viewer may use.
    func consoleAction(_ input: ConsoleInput, actionID: String, status: Int = 200, error: String? = nil)
        throws(ServerError) -> ConsolePage
    {
        let caller = try input.requireCaller()
        let routes = ActionRoutes(context: context)
        let shown = try store.read { session -> ConsoleActionDetail in
            guard let action = try session.action(id: actionID), try routes.visible(action, to: caller, in: session)
            else {
                throw ServerError.notFound("there is no action \(OneLine.quote(actionID, limit: 60))")
            }
            let updates = try session.actionUpdates(actionID: action.id)
            return ConsoleActionDetail(
                action: action, updates: updates,
                document: try ActionDocument.reading(action, updates, generation: "", in: session),
                movers: try routes.movers(caller, action, in: session),
                facility: try session.managedFacility(id: action.facilityID)?.facility,
                area: try action.areaID.flatMap { (id) throws(ServerError) in try session.area(id: id) },
                people: caller.isSupervisor ? try session.allUsers().filter { !$0.isDisabled } : [])
        }
        guard let viewer = input.viewer else { throw ServerError.authRequired("sign in first") }
        let body =
            ConsoleLayout.notice(Self.noticeText(input)) + ConsoleLayout.error(error)
            + ConsoleActionView.detail(shown, csrf: viewer.csrf, now: Date())
        return ConsolePage(status: status, title: shown.action.title, body: body, viewer: viewer)
    }

    /// `POST /console/actions/{id}`: one update from the page's forms, then
    /// back to the action; refused, the action's page again with why (a
    /// move its state no longer allows shows the action as it now stands).
    func consoleActionUpdate(_ input: ConsoleInput, actionID: String) throws(ServerError) -> ConsoleReply {
        let caller = try input.requireCaller()
        try input.requireCSRF()
        let form = input.form
        let request: ActionUpdateRequest
        do throws(ServerError) {
            request = try ConsoleActionView.request(form)
            try ActionRoutes(context: context).recordUpdate(request, actionID: actionID, by: caller)
        } catch {
            guard error.status != 404 else { throw error }
            return .page(try consoleAction(input, actionID: actionID, status: error.status, error: error.message))
        }
        return .redirect(Self.consolePath + "/actions/" + HTML.percent(actionID) + "?notice=saved")
    }
}

/// What the actions list shows from the store in one read.
struct ConsoleActionListing {
    var actions: [StoredAction]
    var counts: [ActionState: Int]
    var facilities: [ManagedFacility]
    var people: [StoredUser]
}

/// What an action's page shows from the store in one read.
struct ConsoleActionDetail {
    var action: StoredAction
    var updates: [StoredActionUpdate]
    var document: ActionDocument
    var movers: ActionMovers
    var facility: Facility?
    var area: Area?
    /// Whom a supervisor may give it to (enabled users); empty for others.
    var people: [StoredUser]
}
