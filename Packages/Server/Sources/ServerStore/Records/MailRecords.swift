import Foundation
import Models

/// What a person may be told by e-mail right away.
public enum MailAlert: String, CaseIterable, Sendable, Comparable {
    /// A report at their sites failed (below its threshold, or a critical failure).
    case reportFailed = "report-failed"
    /// A high or critical issue was flagged at their sites.
    case seriousIssue = "serious-issue"
    /// An action was assigned to them.
    case actionAssigned = "action-assigned"
    /// An action assigned to them, or at their sites, passed its due time (once, at that time).
    case actionOverdue = "action-overdue"
    /// A client asked for service at their sites.
    case clientRequest = "client-request"
    /// A report of theirs was returned to them.
    case reportReturned = "report-returned"
    /// A scheduled visit at their sites had no inspection by its window's end and grace (once a visit).
    case visitMissed = "visit-missed"

    public static func < (a: MailAlert, b: MailAlert) -> Bool { a.rawValue < b.rawValue }

    /// The alerts of a stored comma list; unknown names are left out.
    public static func list(_ text: String) -> Set<MailAlert> {
        Set(text.split(separator: ",").compactMap { MailAlert(rawValue: String($0)) })
    }

    /// The stored comma list of `alerts`.
    public static func text(_ alerts: Set<MailAlert>) -> String {
        alerts.sorted().map(\.rawValue).joined(separator: ",")
    }

    /// The alerts a person of `role` may choose: a client only hears of
    /// approved work, in digests, never of a report the moment it arrives.
    public static func allowed(for role: UserRole) -> Set<MailAlert> {
        switch role {
        case .supervisor, .admin: Set(allCases)
        case .inspector: [.actionAssigned, .actionOverdue, .reportReturned]
        case .crew: [.actionAssigned, .actionOverdue]
        case .client: []
        }
    }
}

/// How often a person's digest comes.
public enum DigestFrequency: String, CaseIterable, Sendable {
    case off
    case daily
    case weekly
}

/// A person's choices of what reaches them by e-mail.
public struct MailPreferences: Sendable, Equatable {
    public var alerts: Set<MailAlert>
    public var digest: DigestFrequency
    /// An admin locked the digest on (a contract asks for it): the person cannot turn it off.
    public var digestLocked: Bool

    /// Makes a set of choices.
    public init(alerts: Set<MailAlert>, digest: DigestFrequency, digestLocked: Bool = false) {
        self.alerts = alerts
        self.digest = digest
        self.digestLocked = digestLocked
    }

    /// What a person of `role` gets until they choose: supervisors and admins
    /// every alert and the daily digest; inspectors and crew the alerts about
    /// their own work; clients the weekly digest.
    public static func defaults(for role: UserRole) -> MailPreferences {
        switch role {
        case .supervisor, .admin: MailPreferences(alerts: Set(MailAlert.allCases), digest: .daily)
        case .inspector: MailPreferences(alerts: [.actionAssigned, .reportReturned], digest: .off)
        case .crew: MailPreferences(alerts: [.actionAssigned], digest: .off)
        case .client: MailPreferences(alerts: [], digest: .weekly)
        }
    }
}

/// A person mail may reach: their address, role, choices and, for a
/// client, the facilities they see.
public struct MailRecipient: Sendable, Equatable {
    public var userID: String
    public var username: String
    public var displayName: String
    public var role: UserRole
    public var email: String
    public var preferences: MailPreferences
    /// The facilities a client sees; empty for everyone else.
    public var facilities: Set<String>

    /// Makes a recipient.
    public init(
        userID: String, username: String, displayName: String, role: UserRole, email: String,
        preferences: MailPreferences, facilities: Set<String>
    ) {
        self.userID = userID
        self.username = username
        self.displayName = displayName
        self.role = role
        self.email = email
        self.preferences = preferences
        self.facilities = facilities
    }
}

/// Where a message stands.
public enum MailState: String, Sendable, CaseIterable {
    /// Not yet taken by the relay: due now, waiting for its next attempt, or being sent.
    case pending
    /// The relay took it.
    case sent
    /// Given up on: the relay refused it (5xx), or attempts ran out. Kept, with the answer, and retryable.
    case failed
}

/// A message to make: what the outbox inserts, once per `messageID`.
public struct NewMail: Sendable, Equatable {
    /// The Message-ID (without angle brackets), made from what the message is
    /// about and for whom: the same message is never made twice.
    public var messageID: String
    /// What it is (an alert's name, `digest-daily`, `digest-weekly`, `test`).
    public var kind: String
    public var userID: String?
    public var recipient: String
    public var subject: String
    /// The whole message as sent: RFC 5322, seven-bit ASCII with CRLF line ends.
    public var body: String

    /// Makes a message.
    public init(messageID: String, kind: String, userID: String?, recipient: String, subject: String, body: String) {
        self.messageID = messageID
        self.kind = kind
        self.userID = userID
        self.recipient = recipient
        self.subject = subject
        self.body = body
    }
}

/// A message in the outbox and how its attempts went.
public struct StoredMail: Sendable, Equatable {
    public var id: Int64
    public var messageID: String
    public var kind: String
    public var userID: String?
    public var recipient: String
    public var subject: String
    /// The message as sent (seven-bit ASCII); empty when a listing left it out.
    public var body: String
    public var state: MailState
    public var attempts: Int
    /// When the next attempt is due, in milliseconds since 1970.
    public var nextAttemptAt: Int64
    /// The relay's last reply code (nil when none arrived) and its text, or what went wrong.
    public var lastCode: Int?
    public var lastReply: String?
    public var lastAttemptAt: String?
    public var sentAt: String?
    public var createdAt: String

    /// Makes a record.
    public init(
        id: Int64, messageID: String, kind: String, userID: String?, recipient: String, subject: String,
        body: String, state: MailState, attempts: Int, nextAttemptAt: Int64, lastCode: Int?, lastReply: String?,
        lastAttemptAt: String?, sentAt: String?, createdAt: String
    ) {
        self.id = id
        self.messageID = messageID
        self.kind = kind
        self.userID = userID
        self.recipient = recipient
        self.subject = subject
        self.body = body
        self.state = state
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastCode = lastCode
        self.lastReply = lastReply
        self.lastAttemptAt = lastAttemptAt
        self.sentAt = sentAt
        self.createdAt = createdAt
    }
}

/// What one attempt leaves behind, as the store records it.
public struct MailAttemptRecord: Sendable, Equatable {
    /// `sent`, `failed`, or `pending` again for another attempt.
    public var state: MailState
    /// The next attempt's time (ms since 1970), when `pending`.
    public var nextAttemptAt: Int64?
    public var code: Int?
    public var reply: String?

    /// Makes a record.
    public init(state: MailState, nextAttemptAt: Int64?, code: Int?, reply: String?) {
        self.state = state
        self.nextAttemptAt = nextAttemptAt
        self.code = code
        self.reply = reply
    }
}

/// An action that passed its due time, as the overdue alert reads it.
public struct OverdueAction: Sendable, Equatable {
    public var id: String
    public var facilityID: String
    public var title: String
    public var severity: String
    public var assigneeID: String?
    public var dueAt: String
    public var isInternal: Bool

    /// Makes a row.
    public init(
        id: String, facilityID: String, title: String, severity: String, assigneeID: String?, dueAt: String,
        isInternal: Bool
    ) {
        self.id = id
        self.facilityID = facilityID
        self.title = title
        self.severity = severity
        self.assigneeID = assigneeID
        self.dueAt = dueAt
        self.isInternal = isInternal
    }
}

/// A report event with what decides whether it is worth an alert, read
/// together in one statement for a whole batch: the grade of the revision
/// it names and whether that revision carries issues.
public struct MailReportEvent: Sendable, Equatable {
    public var event: StoredReportEvent
    /// The named revision's grade; nil when it has none (no pass mark, or kept from before grades).
    public var grade: ReportGrade?
    /// Whether the named revision carries any issue.
    public var hasIssues: Bool

    /// Makes a row.
    public init(event: StoredReportEvent, grade: ReportGrade?, hasIssues: Bool) {
        self.event = event
        self.grade = grade
        self.hasIssues = hasIssues
    }
}
