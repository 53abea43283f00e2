/// A facility that inspections take place in, as cached from the server.
public struct Facility: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var address: String
    public var projectName: String

    public init(id: String, name: String, address: String = "", projectName: String = "") {
        self.id = id
        self.name = name
        self.address = address
        self.projectName = projectName
    }

    enum CodingKeys: String, CodingKey {
        case id, name, address
        case projectName = "project_name"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeID(forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        address = try c.decodeIfPresent(String.self, forKey: .address) ?? ""
        projectName = try c.decodeIfPresent(String.self, forKey: .projectName) ?? ""
    }
}

/// An area inside a facility (a washroom, a lobby).
public struct Area: Sendable, Hashable, Codable {
    public var id: String
    public var facilityID: String
    public var name: String
    public var areaType: String

    public init(id: String, facilityID: String, name: String, areaType: String = "") {
        self.id = id
        self.facilityID = facilityID
        self.name = name
        self.areaType = areaType
    }

    enum CodingKeys: String, CodingKey {
        case id, name
        case facilityID = "facility_id"
        case areaType = "area_type"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeID(forKey: .id)
        facilityID = try c.decodeID(forKey: .facilityID)
        name = try c.decode(String.self, forKey: .name)
        areaType = try c.decodeIfPresent(String.self, forKey: .areaType) ?? ""
    }
}

/// Whether an assignment still wants an inspection.
public enum AssignmentStatus: String, Sendable, Hashable, Codable {
    case open
    case closed
}

/// A scheduled inspection the server assigned to this inspector.
public struct Assignment: Sendable, Hashable, Codable {
    public var id: String
    public var templateID: String
    public var facilityID: String
    public var areaID: String?
    /// RFC 3339 text as the server sent it; shown, never used for ordering.
    public var dueAt: String?
    public var status: AssignmentStatus

    public init(
        id: String, templateID: String, facilityID: String, areaID: String? = nil,
        dueAt: String? = nil, status: AssignmentStatus = .open
    ) {
        self.id = id
        self.templateID = templateID
        self.facilityID = facilityID
        self.areaID = areaID
        self.dueAt = dueAt
        self.status = status
    }

    enum CodingKeys: String, CodingKey {
        case id, status
        case templateID = "template_id"
        case facilityID = "facility_id"
        case areaID = "area_id"
        case dueAt = "due_at"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeID(forKey: .id)
        templateID = try c.decodeID(forKey: .templateID)
        facilityID = try c.decodeID(forKey: .facilityID)
        areaID = try c.decodeIDIfPresent(forKey: .areaID)
        dueAt = try c.decodeIfPresent(String.self, forKey: .dueAt)
        // An unknown status from a newer server is treated as open: showing
        // an extra assignment is harmless, hiding a real one is not.
        let raw = try c.decodeIfPresent(String.self, forKey: .status) ?? "open"
        status = AssignmentStatus(rawValue: raw) ?? .open
    }
}
