import Foundation
import Models
import ServerStore

/// The mail outbox is the webhook outbox's: the record of events written in
/// the transaction of each change (`report_events`, `action_events`), read
/// in order from cursors kept in settings. Messages are made from the events
/// after the cursors, and the cursors moved, in one transaction; each message's
/// Message-ID is made from what it is about and for whom and is unique in the
/// table, so an event never makes a message twice, whichever instance or
/// retried transaction makes it. Actions falling due are read the same way,
/// by a cursor on their due time, and digests by a cursor on their period.
enum MailOutbox {
    static let reportCursorKey = "mail.report_cursor"
    static let actionCursorKey = "mail.action_cursor"
    static let overdueCursorKey = "mail.overdue_cursor"
    static let missedCursorKey = "mail.missed_cursor"
    /// Events read per cursor per pass: a pass stays short, whatever the backlog.
    static let batch = 200

    /// Makes the messages of the events recorded since the cursors (nothing
    /// while mail is off); how many events it read and messages it made, so
    /// the sender that called it looks again at once while there is more.
    ///
    /// The events are read and the messages written (a digest's PDFs drawn)
    /// in a read of their own, so the database's writers (ingestion) never
    /// wait on it; then one short write checks that the cursors are still
    /// where the read found them and, only then, moves them and keeps the
    /// messages. Another instance that moved them first wins; this pass's
    /// work is dropped, and its messages, made again, would share its ids.
    static func fanOut(
        store: any ServerStorage, settings: MailSettings, documents: DigestDocuments, now: Date
    ) throws(ServerError) -> Int {
        guard settings.isOn else { return 0 }
        let plan = try store.read { session throws(ServerError) -> MailPlan in
            try self.plan(in: session, settings: settings, documents: documents, now: now)
        }
        guard !plan.moves.isEmpty else { return 0 }
        let kept = try store.write { session throws(ServerError) -> Bool in
            for (key, value) in plan.found where try session.mailCursor(key) != value { return false }
            for (key, value) in plan.moves { try session.setSetting(key, value) }
            _ = try session.enqueueMail(plan.messages, dueAt: WebhookOutbox.milliseconds(now), at: RFC3339.string(now))
            return true
        }
        return kept ? plan.work + plan.messages.count : 0
    }

    /// What one pass read and made, and where it leaves the cursors.
    private static func plan(
        in session: any StorageSession, settings: MailSettings, documents: DigestDocuments, now: Date
    ) throws(ServerError) -> MailPlan {
        var plan = MailPlan()
        let latest = try session.latestEventChanges()
        // Mail turned on (or first run): start from now, never from the whole history.
        let reportCursor = try plan.cursor(reportCursorKey, in: session, start: String(latest.reports))
        let actionCursor = try plan.cursor(actionCursorKey, in: session, start: String(latest.actions))
        let overdueCursor = try plan.cursor(overdueCursorKey, in: session, start: RFC3339.string(now) + "|")
        var alerts = try MailAlerts(session: session, settings: settings, now: now)

        let reports = try session.mailReportEvents(afterChange: Int64(reportCursor) ?? 0, limit: batch)
        for event in reports where alerts.mayConcern(event) { try alerts.report(event.event) }
        if let last = reports.last { plan.move(reportCursorKey, to: String(last.event.change)) }

        let actions = try session.actionEvents(afterChange: Int64(actionCursor) ?? 0, limit: batch)
        for event in actions { try alerts.action(event) }
        if let last = actions.last { plan.move(actionCursorKey, to: String(last.change)) }

        let parts = overdueCursor.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        let due = try session.actionsFallingDue(
            after: (String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : ""), upTo: RFC3339.string(now),
            limit: batch)
        for action in due { try alerts.overdue(action) }
        if let last = due.last { plan.move(overdueCursorKey, to: last.dueAt + "|" + last.id) }

        let missed = try missedVisits(in: session, now: now, plan: &plan)
        for visit in missed { try alerts.missed(visit) }

        plan.work = reports.count + actions.count + due.count + missed.count
        plan.work += try MailDigests(
            session: session, settings: settings, documents: documents, now: now, look: alerts.look
        )
        .make(for: alerts.people, into: &alerts, plan: &plan)
        plan.messages = alerts.messages
        return plan
    }
}

extension MailOutbox {
    /// The visits missed since the cursor (their window's end and the
    /// organisation's grace passed with no inspection), the cursor moved past them.
    fileprivate static func missedVisits(in session: any StorageSession, now: Date, plan: inout MailPlan)
        throws(ServerError) -> [ScheduledVisit]
    {
        let upTo = RFC3339.string(now.addingTimeInterval(-(try VisitGrace.current(in: session))))
        let cursor = try plan.cursor(missedCursorKey, in: session, start: upTo + "|")
        let parts = cursor.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        let missed = try session.visitsFallingMissed(
            after: (String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : ""), upTo: upTo, limit: batch)
        if let last = missed.last { plan.move(missedCursorKey, to: last.windowEnd + "|" + last.id) }
        return missed
    }
}

/// One pass of the mail outbox: the cursors as it found them, where it
/// moves them, and the messages it made.
struct MailPlan {
    /// Each cursor read, as it was (nil: not set yet).
    private(set) var found: [String: String?] = [:]
    /// Each cursor's new value.
    private(set) var moves: [String: String] = [:]
    var messages: [NewMail] = []
    /// Events and people gone through.
    var work = 0

    /// A cursor's value; `start` (to be stored) when it has none yet.
    mutating func cursor(_ key: String, in session: any StorageSession, start: String) throws(ServerError) -> String {
        let value = try session.mailCursor(key)
        found[key] = .some(value)
        guard let value else {
            moves[key] = start
            return start
        }
        return value
    }

    /// Moves a cursor read with `cursor`.
    mutating func move(_ key: String, to value: String) { moves[key] = value }
}
