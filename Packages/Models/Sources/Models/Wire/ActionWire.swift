import Foundation

/// A value a request may leave out, set, or set to null (clear it): the
/// `assignee` and `due_at` of an action's update (contract 1.2).
public enum WireSettable<Value: Sendable & Hashable & Codable>: Sendable, Hashable {
    case absent
    case cleared
    case set(Value)
}

/// A person as actions name them: id, user name and display name.
public struct WireActionPerson: Sendable, Hashable, Codable {
    public var id: String
    public var username: String
    public var displayName: String

    public init(id: String, username: String, displayName: String) {
        self.id = id
        self.username = username
        self.displayName = displayName
    }

    enum CodingKeys: String, CodingKey {
        case id, username
        case displayName = "display_name"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeID(forKey: .id)
        username = try c.decodeIfPresent(String.self, forKey: .username) ?? id
        displayName = try c.decodeIfPresent(String.self, forKey: .displayName) ?? username
    }
}

/// A photo of an action or of one of its updates.
public struct WireActionPhoto: Sendable, Hashable, Codable {
    public var localID: UUID
    public var sha256: String
    public var byteSize: Int64

    enum CodingKeys: String, CodingKey {
        case localID = "local_id"
        case sha256
        case byteSize = "byte_size"
    }

    /// A photo's metadata.
    public init(localID: UUID, sha256: String, byteSize: Int64) {
        self.localID = localID
        self.sha256 = sha256
        self.byteSize = byteSize
    }

    /// The local id written in the wire's lower case, as the server writes it.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(localID, forKey: .localID)
        try c.encode(sha256, forKey: .sha256)
        try c.encode(byteSize, forKey: .byteSize)
    }
}

/// Where an action came from: an issue, a supervisor, a client.
public struct WireActionSource: Sendable, Hashable, Codable {
    public var kind: String
    public var reportServerID: String?
    public var issueLocalID: String?

    enum CodingKeys: String, CodingKey {
        case kind
        case reportServerID = "report_server_id"
        case issueLocalID = "issue_local_id"
    }
}

/// One recorded update of an action: what it changed, by whom, when.
public struct WireActionUpdate: Sendable, Hashable, Codable {
    public var id: UUID
    public var author: WireActionPerson
    public var at: String
    public var state: ActionState?
    public var comment: String?
    /// The assignee it set (a user name), cleared, or left.
    public var assignee: WireSettable<String>
    /// The due time it set, cleared, or left.
    public var dueAt: WireSettable<String>
    public var photos: [WireActionPhoto]
    public var version: Int

    enum CodingKeys: String, CodingKey {
        case id, author, at, state, comment, assignee, photos, version
        case dueAt = "due_at"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        author = try c.decode(WireActionPerson.self, forKey: .author)
        at = try c.decode(String.self, forKey: .at)
        state = try c.decodeIfPresent(ActionState.self, forKey: .state)
        comment = try c.decodeIfPresent(String.self, forKey: .comment)
        assignee = try c.settable(String.self, forKey: .assignee)
        dueAt = try c.settable(String.self, forKey: .dueAt)
        photos = try c.decodeIfPresent([WireActionPhoto].self, forKey: .photos) ?? []
        version = try c.decode(Int.self, forKey: .version)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.uuidString.lowercased(), forKey: .id)
        try c.encode(author, forKey: .author)
        try c.encode(at, forKey: .at)
        try c.encodeIfPresent(state, forKey: .state)
        try c.encodeIfPresent(comment, forKey: .comment)
        try c.encodeSettable(assignee, forKey: .assignee)
        try c.encodeSettable(dueAt, forKey: .dueAt)
        try c.encode(photos, forKey: .photos)
        try c.encode(version, forKey: .version)
    }
}

/// A corrective action as the server sends it (contract 1.2).
public struct WireAction: Sendable, Hashable, Codable {
    public var id: String
    public var facilityID: String
    public var areaID: String?
    public var title: String
    public var description: String?
    public var severity: IssueSeverity
    public var isInternal: Bool
    public var state: ActionState
    public var assignee: WireActionPerson?
    public var dueAt: String?
    public var source: WireActionSource
    public var createdBy: WireActionPerson
    public var photos: [WireActionPhoto]
    public var version: Int
    public var createdAt: String
    public var updatedAt: String
    public var change: String
    public var updates: [WireActionUpdate]

    enum CodingKeys: String, CodingKey {
        case id, title, description, severity, state, assignee, source, photos, version, change, updates
        case facilityID = "facility_id"
        case areaID = "area_id"
        case isInternal = "internal"
        case dueAt = "due_at"
        case createdBy = "created_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// `POST /actions`'s body.
public struct WireNewAction: Sendable, Hashable, Codable {
    public var id: UUID
    public var facilityID: String
    public var areaID: String?
    public var title: String
    public var description: String?
    public var severity: IssueSeverity?
    public var assignee: String?
    public var dueAt: String?
    public var isInternal: Bool?
    public var reportServerID: String?
    public var issueLocalID: String?

    public init(
        id: UUID, facilityID: String, areaID: String? = nil, title: String, description: String? = nil,
        severity: IssueSeverity? = nil, assignee: String? = nil, dueAt: String? = nil, isInternal: Bool? = nil,
        reportServerID: String? = nil, issueLocalID: String? = nil
    ) {
        self.id = id
        self.facilityID = facilityID
        self.areaID = areaID
        self.title = title
        self.description = description
        self.severity = severity
        self.assignee = assignee
        self.dueAt = dueAt
        self.isInternal = isInternal
        self.reportServerID = reportServerID
        self.issueLocalID = issueLocalID
    }

    enum CodingKeys: String, CodingKey {
        case id, title, description, severity, assignee
        case facilityID = "facility_id"
        case areaID = "area_id"
        case dueAt = "due_at"
        case isInternal = "internal"
        case reportServerID = "report_server_id"
        case issueLocalID = "issue_local_id"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        facilityID = try c.decode(String.self, forKey: .facilityID)
        areaID = try c.decodeIfPresent(String.self, forKey: .areaID)
        title = try c.decode(String.self, forKey: .title)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        severity = try c.decodeIfPresent(IssueSeverity.self, forKey: .severity)
        assignee = try c.decodeIfPresent(String.self, forKey: .assignee)
        dueAt = try c.decodeIfPresent(String.self, forKey: .dueAt)
        isInternal = try c.decodeIfPresent(Bool.self, forKey: .isInternal)
        reportServerID = try c.decodeIfPresent(String.self, forKey: .reportServerID)
        issueLocalID = try c.decodeIfPresent(String.self, forKey: .issueLocalID)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.uuidString.lowercased(), forKey: .id)
        try c.encode(facilityID, forKey: .facilityID)
        try c.encodeIfPresent(areaID, forKey: .areaID)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encodeIfPresent(severity, forKey: .severity)
        try c.encodeIfPresent(assignee, forKey: .assignee)
        try c.encodeIfPresent(dueAt, forKey: .dueAt)
        try c.encodeIfPresent(isInternal, forKey: .isInternal)
        try c.encodeIfPresent(reportServerID, forKey: .reportServerID)
        try c.encodeIfPresent(issueLocalID, forKey: .issueLocalID)
    }
}

/// `POST /actions/{id}/updates`'s body.
public struct WireActionChange: Sendable, Hashable, Codable {
    public var id: UUID
    public var state: ActionState?
    public var comment: String?
    public var assignee: WireSettable<String>
    public var dueAt: WireSettable<String>

    public init(
        id: UUID, state: ActionState? = nil, comment: String? = nil, assignee: WireSettable<String> = .absent,
        dueAt: WireSettable<String> = .absent
    ) {
        self.id = id
        self.state = state
        self.comment = comment
        self.assignee = assignee
        self.dueAt = dueAt
    }

    enum CodingKeys: String, CodingKey {
        case id, state, comment, assignee
        case dueAt = "due_at"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        state = try c.decodeIfPresent(ActionState.self, forKey: .state)
        comment = try c.decodeIfPresent(String.self, forKey: .comment)
        assignee = try c.settable(String.self, forKey: .assignee)
        dueAt = try c.settable(String.self, forKey: .dueAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.uuidString.lowercased(), forKey: .id)
        try c.encodeIfPresent(state, forKey: .state)
        try c.encodeIfPresent(comment, forKey: .comment)
        try c.encodeSettable(assignee, forKey: .assignee)
        try c.encodeSettable(dueAt, forKey: .dueAt)
    }
}

/// `{"action"}`: the answer of every action route but the feed.
public struct ActionResponse: Sendable, Hashable, Codable {
    public var action: WireAction
}

/// `GET /actions`'s answer: a page of actions in order of change.
public struct ActionsResponse: Sendable, Hashable, Codable {
    public var actions: [WireAction]
    public var cursor: String
    public var more: Bool
}

extension KeyedDecodingContainer {
    /// A member that may be absent, null, or a value.
    func settable<T: Sendable & Hashable & Codable>(_ type: T.Type, forKey key: Key) throws -> WireSettable<T> {
        guard contains(key) else { return .absent }
        if try decodeNil(forKey: key) { return .cleared }
        return .set(try decode(T.self, forKey: key))
    }
}

extension KeyedEncodingContainer {
    /// Writes a settable member: nothing when absent, null when cleared.
    mutating func encodeSettable<T: Sendable & Hashable & Codable>(_ value: WireSettable<T>, forKey key: Key) throws {
        switch value {
        case .absent: break
        case .cleared: try encodeNil(forKey: key)
        case .set(let value): try encode(value, forKey: key)
        }
    }
}
