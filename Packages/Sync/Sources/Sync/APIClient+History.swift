import Foundation

/// What `GET /inspections` is narrowed to (contract 1.1): each filter left
/// nil is not sent. A server of contract 1.0 ignores them all.
public struct HistoryFilter: Sendable, Hashable {
    /// Only this facility's reports (`facility_id`).
    public var facilityID: String?
    /// Only this inspector's reports (`inspector_id`).
    public var inspectorID: String?
    /// Only reports of this template (`template_id`).
    public var templateID: String?
    /// Completed at or after this RFC 3339 time (`from`, on `completed_at`).
    public var from: String?
    /// Completed at or before this RFC 3339 time (`to`, on `completed_at`).
    public var to: String?

    /// A filter; nothing set asks for every report the caller may see.
    public init(
        facilityID: String? = nil, inspectorID: String? = nil, templateID: String? = nil,
        from: String? = nil, to: String? = nil
    ) {
        self.facilityID = facilityID
        self.inspectorID = inspectorID
        self.templateID = templateID
        self.from = from
        self.to = to
    }

    /// True when nothing narrows the history.
    public var isEmpty: Bool { queryItems.isEmpty }

    /// The query parameters, in the contract's names, of the filters that are set.
    public var queryItems: [(String, String)] {
        [
            ("facility_id", facilityID), ("inspector_id", inspectorID), ("template_id", templateID), ("from", from),
            ("to", to),
        ]
        .compactMap { name, value in value.map { (name, $0) } }
    }
}
