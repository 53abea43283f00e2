import FieldTypes
import Foundation
import Models
import ServerStore

/// A value of a request that may be left out, set, or set to null (clear it).
enum Settable<Value: Sendable & Equatable>: Sendable, Equatable {
    case absent
    case cleared
    case set(Value)

    /// Whether the request names it at all.
    var isGiven: Bool { self != .absent }
}

/// Reading the members of a JSON request body strictly: a wrong type is a
/// 400 naming the member.
struct RequestMembers {
    let object: [String: JSONValue]

    /// The body as an object; 400 for anything else.
    init(_ body: JSONValue) throws(ServerError) {
        guard let object = body.objectValue else {
            throw ServerError.badRequest("the body must be a JSON object")
        }
        self.object = object
    }

    /// A string member; nil when left out or null.
    func text(_ key: String, limit: Int) throws(ServerError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?:
            guard TextLimit.fits(text, limit) else {
                throw ServerError.badRequest("'\(key)' is longer than \(TextLimit.words(limit))")
            }
            return text
        default: throw ServerError.badRequest("'\(key)' must be a string")
        }
    }

    /// A string member that may be null (cleared) or left out.
    func settableText(_ key: String, limit: Int) throws(ServerError) -> Settable<String> {
        guard let value = object[key] else { return .absent }
        if value == .null { return .cleared }
        return .set(try text(key, limit: limit) ?? "")
    }

    /// A member holding a UUID, as lower-case text.
    func uuid(_ key: String) throws(ServerError) -> String {
        guard let text = object[key]?.stringValue, let id = UUID(uuidString: text) else {
            throw ServerError.badRequest("'\(key)' must be a UUID")
        }
        return id.uuidString.lowercased()
    }

    /// A boolean member; nil when left out.
    func flag(_ key: String) throws(ServerError) -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw ServerError.badRequest("'\(key)' must be true or false")
        }
    }

    /// An RFC 3339 time member that may be null or left out.
    func settableTime(_ key: String) throws(ServerError) -> Settable<String> {
        switch try settableText(key, limit: 64) {
        case .absent: return .absent
        case .cleared: return .cleared
        case .set(let text):
            guard let date = RFC3339.date(text) else {
                throw ServerError.badRequest(
                    "'\(key)' must be an RFC 3339 time such as 2026-03-01T09:30:00Z, not \(OneLine.quote(text, limit: 40))"
                )
            }
            return .set(RFC3339.string(date))
        }
    }

    /// A severity member; `otherwise` when left out.
    func severity(_ key: String, otherwise: IssueSeverity) throws(ServerError) -> IssueSeverity {
        guard let text = try self.text(key, limit: 20) else { return otherwise }
        guard let severity = IssueSeverity(rawValue: text) else {
            throw ServerError.badRequest(
                "'\(key)' must be low, medium, high or critical, not \(OneLine.quote(text, limit: 20))")
        }
        return severity
    }
}

/// `POST /actions`'s body, read strictly.
struct NewActionRequest {
    /// The longest title and description, in characters.
    static let longestTitle = 200
    static let longestDescription = 4000

    var id: String
    var facilityID: String
    var areaID: String?
    var title: String
    var description: String?
    var severity: IssueSeverity
    var assignee: String?
    var dueAt: String?
    var isInternal: Bool
    var reportServerID: String?
    var issueLocalID: String?

    /// Reads the body, every member checked.
    static func read(_ members: RequestMembers) throws(ServerError) -> NewActionRequest {
        let id = try members.uuid("id")
        guard let facility = try members.text("facility_id", limit: 100), !facility.isEmpty else {
            throw ServerError.badRequest("'facility_id' is required")
        }
        let title = (try members.text("title", limit: longestTitle) ?? "").trimmingCharacters(
            in: .whitespacesAndNewlines)
        guard ReviewRoutes.sanitised(title) != nil else {
            throw ServerError.badRequest("'title' is required: a line saying what needs doing")
        }
        let due: String?
        if case .set(let time) = try members.settableTime("due_at") { due = time } else { due = nil }
        return NewActionRequest(
            id: id, facilityID: facility, areaID: try members.text("area_id", limit: 100),
            title: title,
            description: try members.text("description", limit: longestDescription).flatMap(ReviewRoutes.sanitised),
            severity: try members.severity("severity", otherwise: .medium),
            assignee: try members.text("assignee", limit: 200), dueAt: due,
            isInternal: try members.flag("internal") ?? false,
            reportServerID: try members.text("report_server_id", limit: 100),
            issueLocalID: try members.text("issue_local_id", limit: 100).map { $0.lowercased() })
    }
}

/// `POST /actions/{id}/updates`'s body, read strictly.
struct ActionUpdateRequest {
    var id: String
    var state: ActionState?
    var comment: String?
    var assignee: Settable<String>
    var dueAt: Settable<String>

    static func read(_ members: RequestMembers) throws(ServerError) -> ActionUpdateRequest {
        let id = try members.uuid("id")
        var state: ActionState?
        if let text = try members.text("state", limit: 20) {
            guard let parsed = ActionState(rawValue: text) else {
                throw ServerError.badRequest(
                    "'state' must be open, in_progress, done, verified or cancelled, not \(OneLine.quote(text, limit: 20))"
                )
            }
            state = parsed
        }
        let rawComment = try members.text("comment", limit: ReviewRoutes.longestComment)
        let comment = rawComment.flatMap(ReviewRoutes.sanitised)
        let request = ActionUpdateRequest(
            id: id, state: state, comment: comment,
            assignee: try members.settableText("assignee", limit: 200), dueAt: try members.settableTime("due_at"))
        guard request.state != nil || rawComment != nil || request.assignee.isGiven || request.dueAt.isGiven else {
            throw ServerError.badRequest("an update needs at least one of 'state', 'comment', 'assignee' and 'due_at'")
        }
        if rawComment != nil && comment == nil && request.state == nil && !request.assignee.isGiven
            && !request.dueAt.isGiven
        {
            throw ServerError.badRequest("the comment is empty")
        }
        return request
    }
}
