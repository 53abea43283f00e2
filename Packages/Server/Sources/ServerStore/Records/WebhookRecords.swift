import Foundation

/// What a webhook can be told of.
public enum WebhookEventType: String, CaseIterable, Sendable, Comparable {
    /// A revision was accepted: a first upload, an amendment, a merge, an edit on the server.
    case reportAccepted = "report.accepted"
    /// A supervisor's decision was recorded.
    case reportReviewed = "report.reviewed"
    /// An issue whose `local_id` the server had not seen arrived with a revision.
    case issueFlagged = "issue.flagged"
    /// A corrective action was made (contract 1.2).
    case actionCreated = "action.created"
    /// An update of a corrective action was recorded (contract 1.2).
    case actionUpdated = "action.updated"

    /// Whether the event is about an action rather than a report.
    public var isAction: Bool { self == .actionCreated || self == .actionUpdated }

    /// Whether the event is an action being made.
    public var isActionCreation: Bool { self == .actionCreated }

    public static func < (a: WebhookEventType, b: WebhookEventType) -> Bool { a.rawValue < b.rawValue }

    /// The types of a stored comma list; unknown names are left out.
    public static func list(_ text: String) -> [WebhookEventType] {
        text.split(separator: ",").compactMap { WebhookEventType(rawValue: String($0)) }.sorted()
    }

    /// The stored comma list of `types`.
    public static func text(_ types: [WebhookEventType]) -> String {
        types.sorted().map(\.rawValue).joined(separator: ",")
    }
}

/// A receiver the operator registered.
public struct StoredWebhook: Sendable, Equatable {
    /// Its id (`wh_` and hex), what the admin commands name it by.
    public var id: String
    /// The `http` or `https` URL events are posted to.
    public var url: String
    /// The events it is sent.
    public var events: [WebhookEventType]
    /// The key of its signatures (the secret file's content); never shown.
    public var secret: String
    /// The operator allowed loopback, link-local and private addresses for it.
    public var allowsPrivateTargets: Bool
    /// RFC 3339, when it was added.
    public var createdAt: String
    /// When it stopped being sent anything (RFC 3339), and why; nil while it is enabled.
    public var disabledAt: String?
    public var disabledReason: String?

    /// Makes a record.
    public init(
        id: String, url: String, events: [WebhookEventType], secret: String, allowsPrivateTargets: Bool,
        createdAt: String,
        disabledAt: String? = nil, disabledReason: String? = nil
    ) {
        self.id = id
        self.url = url
        self.events = events
        self.secret = secret
        self.allowsPrivateTargets = allowsPrivateTargets
        self.createdAt = createdAt
        self.disabledAt = disabledAt
        self.disabledReason = disabledReason
    }
}

/// An event made from the report's record of events (the outbox) for a
/// hook: its id, type and time, the report it is about, and the exact bytes
/// posted, made once from the revision it names (revisions never change)
/// and kept, so every attempt and replay posts the same bytes.
public struct WebhookEvent: Sendable, Equatable {
    /// A UUID, lowercase: the same on every attempt, so receivers can drop duplicates.
    public var id: String
    public var type: WebhookEventType
    /// RFC 3339, the server's clock.
    public var at: String
    /// The report (or, for an action's event, the action) it is about: events
    /// of one report, or of one action, are delivered in order.
    public var reportServerID: String
    /// The exact bytes posted.
    public var body: String

    /// Makes an event.
    public init(id: String, type: WebhookEventType, at: String, reportServerID: String, body: String) {
        self.id = id
        self.type = type
        self.at = at
        self.reportServerID = reportServerID
        self.body = body
    }
}

/// Where a delivery stands.
public enum WebhookDeliveryState: String, Sendable {
    /// Not yet acknowledged: due now, waiting for its next attempt, or being attempted.
    case pending
    /// A 2xx answer arrived in time.
    case delivered
    /// Given up on: attempts exhausted, or the receiver answered 410. Kept, and replayable.
    case failed
}

/// One event to one webhook, and how its attempts went.
public struct WebhookDelivery: Sendable, Equatable {
    public var id: Int64
    public var webhookID: String
    /// The event, as the outbox holds it (its body when made).
    public var event: WebhookEvent
    public var eventID: String { event.id }
    public var eventType: String { event.type.rawValue }
    public var eventAt: String { event.at }
    public var reportServerID: String { event.reportServerID }
    public var state: WebhookDeliveryState
    public var attempts: Int
    /// When the next attempt is due, in milliseconds since 1970.
    public var nextAttemptAt: Int64
    /// The last answer's status (nil when none arrived) and what went wrong.
    public var lastStatus: Int?
    public var lastError: String?
    public var lastAttemptAt: String?
    public var deliveredAt: String?

    /// Makes a record.
    public init(
        id: Int64, webhookID: String, event: WebhookEvent, state: WebhookDeliveryState, attempts: Int,
        nextAttemptAt: Int64,
        lastStatus: Int?, lastError: String?, lastAttemptAt: String?, deliveredAt: String?
    ) {
        self.id = id
        self.webhookID = webhookID
        self.event = event
        self.state = state
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.lastAttemptAt = lastAttemptAt
        self.deliveredAt = deliveredAt
    }
}

/// A delivery taken by one sender until its lease runs out, and its hook.
public struct ClaimedDelivery: Sendable {
    public var delivery: WebhookDelivery
    public var webhook: StoredWebhook

    /// Groups what the store read.
    public init(delivery: WebhookDelivery, webhook: StoredWebhook) {
        self.delivery = delivery
        self.webhook = webhook
    }
}

/// What one attempt leaves behind, as the store records it.
public struct WebhookAttemptRecord: Sendable, Equatable {
    /// `delivered`, `failed`, or `pending` again for another attempt.
    public var state: WebhookDeliveryState
    /// The next attempt's time (ms since 1970), when `pending`.
    public var nextAttemptAt: Int64?
    public var status: Int?
    public var error: String?
    /// The receiver answered 410: the hook is disabled with this reason.
    public var disablesHook: String?

    /// Makes a record.
    public init(
        state: WebhookDeliveryState, nextAttemptAt: Int64?, status: Int?, error: String?, disablesHook: String? = nil
    ) {
        self.state = state
        self.nextAttemptAt = nextAttemptAt
        self.status = status
        self.error = error
        self.disablesHook = disablesHook
    }
}

/// An action as it stood after one change: the record webhooks read
/// action events from, written in the transaction of the change.
public struct StoredActionEvent: Sendable, Equatable {
    /// The change's position in the order of action changes.
    public var change: Int64
    public var actionID: String
    public var type: WebhookEventType
    /// RFC 3339, the server's clock.
    public var at: String
    /// The action as the contract writes it, canonical JSON.
    public var actionJSON: String

    /// Makes an action event.
    public init(change: Int64, actionID: String, type: WebhookEventType, at: String, actionJSON: String) {
        self.change = change
        self.actionID = actionID
        self.type = type
        self.at = at
        self.actionJSON = actionJSON
    }
}

/// An enabled hook as the fan-out reads it: its cursors in the order of
/// report events and in the order of action changes.
public struct FanOutHook: Sendable, Equatable {
    public var hook: StoredWebhook
    public var cursor: Int64
    public var actionCursor: Int64

    /// Makes a fan-out row.
    public init(hook: StoredWebhook, cursor: Int64, actionCursor: Int64) {
        self.hook = hook
        self.cursor = cursor
        self.actionCursor = actionCursor
    }
}
