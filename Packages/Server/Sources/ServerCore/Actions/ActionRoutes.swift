import FieldTypes
import Foundation
import Models
import ServerStore

/// Corrective actions (contract 1.2): made by supervisors and admins (and
/// by the server from issues, `ActionMaker`), moved through their states by
/// the people the table of moves names, read one at a time or as a feed.
struct ActionRoutes: RouteCapability {
    let context: ServerContext

    /// `POST /actions` (supervisors, admins and clients): 201 with the new
    /// action; the same `id` again, or an issue that has an action already,
    /// 200 with that action as it now stands, making nothing. A client's is a
    /// request for service at one of their facilities.
    func createAction(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        guard caller.isSupervisor || caller.user.role == .client else {
            throw ServerError.forbidden("only supervisors, admins and clients may make an action")
        }
        let (document, made) = try makeAction(RequestMembers(try input.decode(JSONValue.self)), by: caller)
        return .ok(JSONValue.object(["action": document]), status: made ? 201 : 200)
    }

    /// Makes the action a request's members ask for (the API's and the
    /// console's one way): the action as the contract writes it, and whether
    /// it was made now (false: its id, or its issue, had one already).
    func makeAction(_ members: RequestMembers, by caller: Caller) throws(ServerError) -> (JSONValue, Bool) {
        let requestID = try members.uuid("id")
        // Any request with an id already used is answered with its action, whatever else it says.
        let parsed: Result<NewActionRequest, ServerError>
        do throws(ServerError) { parsed = .success(try NewActionRequest.read(members)) } catch {
            parsed = .failure(error)
        }
        let (document, made) = try store.write { session -> (JSONValue, Bool) in
            if let existing = try session.action(requestID: requestID) {
                return (try actionJSON(existing, in: session), false)
            }
            let request = try parsed.get()
            if caller.user.role == .client { try clientRequest(request, caller: caller, in: session) }
            if let existing = try issueAction(request, caller: caller, in: session) {
                return (try actionJSON(existing, in: session), false)
            }
            let made = try newAction(request, caller: caller, in: session)
            let action = try session.insertAction(made, viewers: try viewers(of: made, in: session))
            try ActionDocument.recordEvent(action, .actionCreated, in: session)
            return (try actionJSON(action, in: session), true)
        }
        // Webhook senders read the action just made.
        if made { outboxBells.ring() }
        return (document, made)
    }

    /// A client's request: at one of their facilities (404 otherwise), and
    /// naming no assignee, due time, internal flag or report (400).
    private func clientRequest(_ request: NewActionRequest, caller: Caller, in session: any StorageSession)
        throws(ServerError)
    {
        guard let scope = try ClientScope.of(caller, gate: config.clientsSee, in: session),
            scope.sees(facility: request.facilityID)
        else { throw ServerError.notFound("no facility '\(request.facilityID)'") }
        let set = [
            request.assignee != nil ? "assignee" : nil, request.dueAt != nil ? "due_at" : nil,
            request.isInternal ? "internal" : nil, request.reportServerID != nil ? "report_server_id" : nil,
            request.issueLocalID != nil ? "issue_local_id" : nil,
        ].compactMap { $0 }
        guard set.isEmpty else {
            throw ServerError.badRequest(
                "a client's request may not set \(set.map { "'\($0)'" }.joined(separator: ", ")); the organisation does"
            )
        }
    }

    /// The action an issue named by `request` has already, after checking the
    /// report is the caller's to see (404) and holds that issue (400).
    private func issueAction(_ request: NewActionRequest, caller: Caller, in session: any StorageSession)
        throws(ServerError) -> StoredAction?
    {
        guard let serverID = request.reportServerID else {
            if request.issueLocalID != nil {
                throw ServerError.badRequest("'issue_local_id' needs 'report_server_id', the report it is in")
            }
            return nil
        }
        guard let report = try session.report(serverID: serverID),
            caller.isSupervisor || report.ownerID == caller.user.id
        else {
            throw ServerError.notFound("no report '\(serverID)'")
        }
        guard report.facilityID == request.facilityID else {
            throw ServerError.badRequest(
                "report '\(serverID)' is of facility '\(report.facilityID)', not '\(request.facilityID)'")
        }
        guard let issueID = request.issueLocalID else { return nil }
        let revision = try session.revision(serverID: serverID, revision: report.currentRevision)
        guard ActionMaker.issues(revision?.issuesJSON ?? "[]").contains(where: { $0.localID == issueID }) else {
            throw ServerError.badRequest("report '\(serverID)' has no issue '\(issueID)'")
        }
        return try session.action(reportServerID: serverID, issueLocalID: issueID)
    }

    /// The action `request` asks for, every reference checked.
    private func newAction(_ request: NewActionRequest, caller: Caller, in session: any StorageSession)
        throws(ServerError) -> StoredAction
    {
        guard try session.managedFacility(id: request.facilityID) != nil else {
            throw ServerError.notFound("no facility '\(request.facilityID)'")
        }
        if let areaID = request.areaID {
            guard let area = try session.area(id: areaID), area.facilityID == request.facilityID else {
                throw ServerError.badRequest("area '\(areaID)' is not an area of facility '\(request.facilityID)'")
            }
        }
        let assignee = try request.assignee.map { (name) throws(ServerError) in try Self.assignee(name, in: session) }
        let now = RFC3339.string(Date())
        return StoredAction(
            id: ActionMaker.newID(), requestID: request.id, facilityID: request.facilityID, areaID: request.areaID,
            title: request.title, description: request.description, severity: request.severity,
            isInternal: request.isInternal, state: .open, assigneeID: assignee?.id, dueAt: request.dueAt,
            sourceKind: caller.user.role == .client ? "client" : request.issueLocalID == nil ? "supervisor" : "issue",
            reportServerID: request.reportServerID,
            issueLocalID: request.issueLocalID, createdByID: caller.user.id, version: 1, createdAt: now,
            updatedAt: now)
    }

    /// Who besides supervisors sees a new action: its assignee and the inspector of the report it names.
    private func viewers(of action: StoredAction, in session: any StorageSession) throws(ServerError) -> [String] {
        var viewers = [action.assigneeID].compactMap { $0 }
        if let serverID = action.reportServerID, let report = try session.report(serverID: serverID) {
            viewers.append(report.ownerID)
        }
        return viewers
    }

    /// The enabled user an action may be given to, by user name (or id); 400 otherwise.
    static func assignee(_ name: String, in session: any StorageSession) throws(ServerError) -> StoredUser {
        guard let user = try Administration.user(name, in: session) else {
            throw ServerError.badRequest("there is no user \(OneLine.quote(name, limit: 60)) to give the action to")
        }
        guard !user.isDisabled else {
            throw ServerError.badRequest("\(OneLine.quote(user.username, limit: 60)) is disabled")
        }
        return user
    }

    /// `POST /actions/{id}/updates`: checks in the contract's order (not
    /// seen: 404; a change the caller may not make: 403; a state the action
    /// cannot move to from where it is: 409 `ACTION_STATE` with the action),
    /// then records the update; the same update id again records nothing.
    func updateAction(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let actionID = try input.parameter("id")
        let request = try ActionUpdateRequest.read(RequestMembers(try input.decode(JSONValue.self)))
        let recorded = try recordUpdate(request, actionID: actionID, by: caller, answering: true)
        return .ok(JSONValue.object(["action": recorded.document ?? .null]))
    }

    /// Records one update of an action, the one way the API and the console
    /// share; returns whether the update was recorded (false for an update id
    /// recorded before) and, when `answering`, the action as it now stands,
    /// written in the same transaction.
    @discardableResult
    func recordUpdate(_ request: ActionUpdateRequest, actionID: String, by caller: Caller, answering: Bool = false)
        throws(ServerError) -> (recorded: Bool, document: JSONValue?)
    {
        let outcome = try store.write { session -> (Bool, JSONValue?) in
            guard let action = try session.action(id: actionID), try visible(action, to: caller, in: session) else {
                throw ServerError.notFound("no action '\(actionID)'")
            }
            if try session.actionUpdate(id: request.id) != nil {
                return (false, answering ? try actionJSON(action, in: session) : nil)
            }
            let judged = try ActionChange.judge(request, on: action, by: try movers(caller, action, in: session))
            if case .notFromHere(let message) = judged {
                throw ServerError.actionState(message, action: try actionJSON(action, in: session))
            }
            let assignee: StoredUser?
            if case .set(let name) = request.assignee {
                assignee = try Self.assignee(name, in: session)
            } else {
                assignee = nil
            }
            let (next, update) = ActionChange.apply(
                request, to: action, assigneeID: assignee?.id, by: caller.user.id, at: RFC3339.string(Date()))
            let saved = try session.recordActionUpdate(update, action: next, viewers: [assignee?.id].compactMap { $0 })
            try ActionDocument.recordEvent(saved, .actionUpdated, in: session)
            return (true, answering ? try actionJSON(saved, in: session) : nil)
        }
        if outcome.0 { outboxBells.ring() }
        return outcome
    }

    /// `GET /actions/{id}`: the action, to whoever may see it (anyone else: 404).
    func getAction(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let actionID = try input.parameter("id")
        let document = try store.read { session -> JSONValue in
            guard let action = try session.action(id: actionID), try visible(action, to: caller, in: session) else {
                throw ServerError.notFound("no action '\(actionID)'")
            }
            return try actionJSON(action, in: session)
        }
        return .ok(JSONValue.object(["action": document]))
    }

    /// `GET /actions?since=&limit=`: every action the caller may see changed
    /// after the cursor, in order of change, paged as `GET /reviews` is.
    func actionFeed(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let limit = try FeedPaging.limit(input.request.query["limit"])
        let feed = try store.read { session -> (page: [JSONValue], cursor: String, more: Bool) in
            let generation = try session.setting(ReviewCursor.generationKey) ?? "0"
            let after = try FeedPaging.position(input.request.query["since"], generation: generation)
            let rows =
                caller.user.role == .client
                ? try session.clientActions(after: after, clientID: caller.user.id, limit: limit + 1)
                : try session.actions(
                    after: after, viewerID: caller.isSupervisor ? nil : caller.user.id, limit: limit + 1)
            let shown = rows.prefix(limit)
            var documents: [JSONValue] = []
            for action in shown { documents.append(try actionJSON(action, in: session)) }
            let cursor = ReviewCursor.encode(shown.last?.change ?? after, generation: generation)
            return (documents, cursor, rows.count > limit)
        }
        return .ok(
            JSONValue.object(["actions": .array(feed.page), "cursor": .string(feed.cursor), "more": .bool(feed.more)]))
    }

    /// Whether `caller` may see `action`: supervisors and admins every one;
    /// others those assigned to them now or before, or from their reports.
    func visible(_ action: StoredAction, to caller: Caller, in session: any StorageSession)
        throws(ServerError) -> Bool
    {
        if caller.isSupervisor { return true }
        if let scope = try ClientScope.of(caller, gate: config.clientsSee, in: session) { return scope.sees(action) }
        return try session.isActionViewer(actionID: action.id, userID: caller.user.id)
    }

    /// Who `caller` counts as in the table of moves for `action`.
    func movers(_ caller: Caller, _ action: StoredAction, in session: any StorageSession)
        throws(ServerError) -> ActionMovers
    {
        var movers: Set<ActionMover> = []
        if caller.isSupervisor { movers.insert(.supervisors) }
        if action.assigneeID == caller.user.id { movers.insert(.assignee) }
        if let serverID = action.reportServerID, try session.report(serverID: serverID)?.ownerID == caller.user.id {
            movers.insert(.reportInspector)
        }
        var who = ActionMovers(movers: movers, movedItToDone: action.doneByID == caller.user.id)
        if caller.user.role == .client { who.client = .init(ownRequest: action.createdByID == caller.user.id) }
        return who
    }

    /// The action as the contract writes it, with its updates.
    func actionJSON(_ action: StoredAction, in session: any StorageSession) throws(ServerError) -> JSONValue {
        try ActionDocument.json(action, in: session)
    }
}
