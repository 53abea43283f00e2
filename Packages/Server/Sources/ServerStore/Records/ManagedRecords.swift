import Foundation
import Models

/// A facility as the organisation manages it: what devices see, and whether it is retired.
public struct ManagedFacility: Sendable, Equatable {
    /// The facility as the contract shows it.
    public var facility: Facility
    /// When it was retired (RFC 3339); retired sites are no longer sent to devices.
    public var retiredAt: String?

    /// Makes a record.
    public init(facility: Facility, retiredAt: String?) {
        self.facility = facility
        self.retiredAt = retiredAt
    }
}

/// An area as the organisation manages it.
public struct ManagedArea: Sendable, Equatable {
    /// The area as the contract shows it.
    public var area: Area
    /// When it was retired (RFC 3339).
    public var retiredAt: String?

    /// Makes a record.
    public init(area: Area, retiredAt: String?) {
        self.area = area
        self.retiredAt = retiredAt
    }
}

/// An assignment as the organisation manages it: whose it is, and whether it was cancelled.
public struct ManagedAssignment: Sendable, Equatable {
    /// The assignment as the contract shows it.
    public var assignment: Assignment
    /// The inspector it is for.
    public var inspectorID: String
    /// When an admin cancelled it (RFC 3339); devices see it closed.
    public var cancelledAt: String?

    /// Makes a record.
    public init(assignment: Assignment, inspectorID: String, cancelledAt: String?) {
        self.assignment = assignment
        self.inspectorID = inspectorID
        self.cancelledAt = cancelledAt
    }
}

/// A template as the organisation manages it: its current version, every
/// version it published, and whether it is retired.
public struct ManagedTemplate: Sendable, Equatable {
    /// The current version.
    public var template: Template
    /// Every version published, oldest first.
    public var versions: [Int]
    /// When it was retired (RFC 3339); retired templates are no longer sent to devices.
    public var retiredAt: String?

    /// Makes a record.
    public init(template: Template, versions: [Int], retiredAt: String?) {
        self.template = template
        self.versions = versions
        self.retiredAt = retiredAt
    }
}

/// One change an admin made: who, when (the server's clock), what.
public struct AdminEvent: Sendable, Equatable {
    /// Its position in the log, from 1.
    public var sequence: Int64
    /// RFC 3339 time of the change.
    public var at: String
    /// Who made it: a user id, or `cli:<name>` for `jqc-server admin`.
    public var actorID: String
    /// The actor's name when the change was made: a user's display name, which they or an admin may change.
    public var actorName: String
    /// A user's user name, which never changes (nil when the user is gone); the login name for the command line.
    public var actorUsername: String?
    /// What happened: `facility.added`, `user.disabled`, ...
    public var kind: String
    /// The id of what changed.
    public var subject: String
    /// What changed, as JSON (never a password or its hash).
    public var detail: JSONValue

    /// Makes an event.
    public init(
        sequence: Int64 = 0, at: String, actorID: String, actorName: String, actorUsername: String? = nil,
        kind: String, subject: String, detail: JSONValue
    ) {
        self.sequence = sequence
        self.at = at
        self.actorID = actorID
        self.actorName = actorName
        self.actorUsername = actorUsername ?? (actorID.hasPrefix("cli:") ? String(actorID.dropFirst(4)) : nil)
        self.kind = kind
        self.subject = subject
        self.detail = detail
    }

    /// Whether the command line (`jqc-server admin`) made the change: an
    /// actor id `cli:<login>`, which no user's id (`U-...`) can be.
    public var byCommandLine: Bool { actorID.hasPrefix("cli:") }
}
