import Foundation

/// A recurring inspection as the organisation keeps it: what is inspected,
/// where, by whom in turn, and when (an iCalendar rule, a local window, a
/// zone). The store keeps the rule as text; the server checks and expands it.
public struct StoredSchedule: Sendable, Equatable {
    public var id: String
    public var templateID: String
    public var facilityID: String
    /// The areas, each visit making one assignment an area; empty: the whole facility.
    public var areaIDs: [String]
    /// The inspectors, each visit given to the next in turn.
    public var inspectorIDs: [String]
    /// The RRULE (RFC 5545), without its `RRULE:` prefix.
    public var rule: String
    /// The local window, `HH:MM-HH:MM`.
    public var window: String
    /// The IANA zone the window is read in.
    public var zone: String
    /// The first local day it may occur on, `YYYY-MM-DD`.
    public var startDate: String
    /// The last local day it may occur on, inclusive.
    public var endDate: String?
    /// When it was paused (RFC 3339): it makes no visits until resumed.
    public var pausedAt: String?
    /// Raised by every change: a visit's id carries it, so the visits of a
    /// changed schedule never take the ids of the ones it cancelled.
    public var version: Int
    /// Visits starting before this instant (RFC 3339) are made; nil: none yet.
    public var madeUntil: String?
    /// How many visits have been made, so the next goes to the next inspector.
    public var madeCount: Int
    public var createdAt: String
    public var updatedAt: String

    /// Makes a record.
    public init(
        id: String, templateID: String, facilityID: String, areaIDs: [String], inspectorIDs: [String], rule: String,
        window: String, zone: String, startDate: String, endDate: String?, pausedAt: String? = nil, version: Int = 1,
        madeUntil: String? = nil, madeCount: Int = 0, createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.templateID = templateID
        self.facilityID = facilityID
        self.areaIDs = areaIDs
        self.inspectorIDs = inspectorIDs
        self.rule = rule
        self.window = window
        self.zone = zone
        self.startDate = startDate
        self.endDate = endDate
        self.pausedAt = pausedAt
        self.version = version
        self.madeUntil = madeUntil
        self.madeCount = madeCount
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// One visit of a schedule made into an assignment: its id, the area, the
/// inspector whose turn it is, and its window (RFC 3339); due at the window's end.
public struct ScheduledVisit: Sendable, Equatable {
    public var id: String
    public var scheduleID: String
    public var templateID: String
    public var facilityID: String
    public var areaID: String?
    public var inspectorID: String
    public var windowStart: String
    public var windowEnd: String

    /// Makes a record.
    public init(
        id: String, scheduleID: String, templateID: String, facilityID: String, areaID: String?, inspectorID: String,
        windowStart: String, windowEnd: String
    ) {
        self.id = id
        self.scheduleID = scheduleID
        self.templateID = templateID
        self.facilityID = facilityID
        self.areaID = areaID
        self.inspectorID = inspectorID
        self.windowStart = windowStart
        self.windowEnd = windowEnd
    }
}

/// A visit as coverage reads it: its window, whether it was cancelled, and
/// when the first accepted inspection that named it was done.
public struct VisitRecord: Sendable, Equatable {
    public var visit: ScheduledVisit
    public var cancelledAt: String?
    /// When the inspection was completed on the device, RFC 3339; nil when none was accepted.
    public var doneAt: String?
    /// When the server accepted that inspection.
    public var acceptedAt: String?

    /// Makes a record.
    public init(visit: ScheduledVisit, cancelledAt: String?, doneAt: String?, acceptedAt: String?) {
        self.visit = visit
        self.cancelledAt = cancelledAt
        self.doneAt = doneAt
        self.acceptedAt = acceptedAt
    }
}
