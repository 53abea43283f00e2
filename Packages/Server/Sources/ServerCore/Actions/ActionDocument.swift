import Foundation
import Models
import ServerStore

/// An action as the contract writes it (`Action`, with its `updates`),
/// every person named by id, user name and display name.
struct ActionDocument {
    /// The people the action and its updates name, by id.
    var people: [String: StoredUser]
    /// The server's data generation, which every `change` carries.
    var generation: String
    /// The action's photos and its updates', in the order they were stored.
    var photos: [StoredActionPhoto] = []

    /// Reads the people `action` and `updates` name, once each.
    static func reading(
        _ action: StoredAction, _ updates: [StoredActionUpdate], generation: String, in session: any StorageSession
    ) throws(ServerError) -> ActionDocument {
        var ids = Set([action.createdByID] + [action.assigneeID].compactMap { $0 })
        for update in updates { ids.formUnion([update.authorID] + [update.assigneeID].compactMap { $0 }) }
        var people: [String: StoredUser] = [:]
        for id in ids { people[id] = try session.user(id: id) }
        return ActionDocument(
            people: people, generation: generation, photos: try session.actionPhotos(actionID: action.id))
    }

    /// The action as the contract writes it, its updates and people read in `session`.
    static func json(_ action: StoredAction, in session: any StorageSession) throws(ServerError) -> JSONValue {
        let updates = try session.actionUpdates(actionID: action.id)
        let generation = try session.setting(ReviewCursor.generationKey) ?? "0"
        return try reading(action, updates, generation: generation, in: session).json(action, updates)
    }

    /// `{"id", "username", "display_name"}` of a user; a user since removed keeps their id.
    func person(_ id: String) -> JSONValue {
        guard let user = people[id] else {
            return ["id": .string(id), "username": .string(id), "display_name": .string(id)]
        }
        return ["id": .string(user.id), "username": .string(user.username), "display_name": .string(user.displayName)]
    }

    /// The action and its updates, oldest first.
    func json(_ action: StoredAction, _ updates: [StoredActionUpdate]) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(action.id), "facility_id": .string(action.facilityID), "title": .string(action.title),
            "severity": .string(action.severity.rawValue), "internal": .bool(action.isInternal),
            "state": .string(action.state.rawValue), "created_by": person(action.createdByID),
            "photos": photos(of: nil),
            "version": .integer(Int64(action.version)), "created_at": .string(action.createdAt),
            "updated_at": .string(action.updatedAt),
            "change": .string(ReviewCursor.encode(action.change, generation: generation)),
            "updates": .array(updates.map(json)),
        ]
        if let area = action.areaID { object["area_id"] = .string(area) }
        if let description = action.description { object["description"] = .string(description) }
        if let assignee = action.assigneeID { object["assignee"] = person(assignee) }
        if let due = action.dueAt { object["due_at"] = .string(due) }
        var source: [String: JSONValue] = ["kind": .string(action.sourceKind)]
        if let report = action.reportServerID { source["report_server_id"] = .string(report) }
        if let issue = action.issueLocalID { source["issue_local_id"] = .string(issue) }
        object["source"] = .object(source)
        return .object(object)
    }

    /// `[Photo]` of the action itself (`update` nil) or of one update.
    func photos(of update: String?) -> JSONValue {
        .array(
            photos.filter { $0.updateID == update }.map { photo in
                [
                    "local_id": .string(photo.localID.uuidString.lowercased()), "sha256": .string(photo.sha256),
                    "byte_size": .integer(photo.byteSize),
                ]
            })
    }

    /// One update: what it changed, and only that.
    func json(_ update: StoredActionUpdate) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(update.id), "author": person(update.authorID), "at": .string(update.at),
            "photos": photos(of: update.id),
            "version": .integer(Int64(update.version)),
        ]
        if let state = update.state { object["state"] = .string(state.rawValue) }
        if let comment = update.comment { object["comment"] = .string(comment) }
        if update.changesAssignee {
            object["assignee"] =
                update.assigneeID.map { id in people[id].map { .string($0.username) } ?? .string(id) } ?? .null
        }
        if update.changesDue { object["due_at"] = update.dueAt.map(JSONValue.string) ?? .null }
        return .object(object)
    }

    /// Records `action` as it now stands for webhooks (`action.created` or
    /// `action.updated`), at its position, in the transaction of the change.
    static func recordEvent(_ action: StoredAction, _ type: WebhookEventType, in session: any StorageSession)
        throws(ServerError)
    {
        let updates = try session.actionUpdates(actionID: action.id)
        let generation = try session.setting(ReviewCursor.generationKey) ?? "0"
        let json = try reading(action, updates, generation: generation, in: session).json(action, updates)
        try session.recordActionEvent(
            StoredActionEvent(
                change: action.change, actionID: action.id, type: type, at: action.updatedAt,
                actionJSON: json.canonicalString()))
    }
}
