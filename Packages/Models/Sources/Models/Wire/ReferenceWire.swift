/// `GET /facilities` response data.
public struct FacilitiesResponse: Sendable, Hashable, Codable {
    public var facilities: [Facility]
    public init(facilities: [Facility]) { self.facilities = facilities }
}

/// `GET /facilities/{id}/areas` response data.
public struct AreasResponse: Sendable, Hashable, Codable {
    public var areas: [Area]
    public init(areas: [Area]) { self.areas = areas }
}

/// `GET /assignments?since=` response data.
public struct AssignmentsResponse: Sendable, Hashable, Codable {
    public var assignments: [Assignment]
    /// Opaque; sent back as `since` next time.
    public var cursor: String
    public init(assignments: [Assignment], cursor: String) {
        self.assignments = assignments
        self.cursor = cursor
    }
}

/// `GET /templates` response data, kept as raw JSON per template so a
/// template with a bad schema can be reported and skipped without losing the others.
public struct TemplatesResponse: Sendable, Hashable, Codable {
    public var templates: [JSONValue]
    public init(templates: [JSONValue]) { self.templates = templates }
}
