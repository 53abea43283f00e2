import Foundation
import Models
import Networking
import ServerHTTP
import ServerStore

/// The mail outbox's courier (`OutboxDispatcher` runs its senders): it
/// takes a few due messages at once (`batch`), hands them to the relay one
/// after the other over the sender's own connection (kept open between
/// messages), and records the relay's answers in one write. A message is
/// marked sent only after the relay took it; an instance killed between the
/// relay's answer and that record leaves the batch's messages to be sent
/// again once their lease runs out, under the same Message-IDs. A batch is
/// cut short, its rest let go, before its lease could run out.
struct MailCourier: OutboxCourier {
    let store: any ServerStorage
    let settings: MailSettings
    /// What a client's digest attaches is drawn with.
    let documents: DigestDocuments
    let log: ServerLog
    let metrics: ServerMetrics
    let diskFull: DiskFullAlarm

    var name: String { "mail" }
    var timing: OutboxTiming { settings.timing }

    /// A sender's connection to the relay, made at its first message.
    final class Line {
        var sender: SMTPSender?
    }

    func makeLine() -> Line { Line() }

    /// Messages one sender takes at once: one write claims them, one records them.
    static let batch = 16

    func claim(in session: any StorageSession, now: Date, leaseUntil: Date, lease: String) throws(ServerError)
        -> [StoredMail]?
    {
        let taken = try session.claimMail(
            now: WebhookOutbox.milliseconds(now), leaseUntil: WebhookOutbox.milliseconds(leaseUntil), lease: lease,
            limit: Self.batch)
        return taken.isEmpty ? nil : taken
    }

    var fullPass: Int { MailOutbox.batch }

    func fanOut(in store: any ServerStorage, now: Date) throws(ServerError) -> Int {
        try MailOutbox.fanOut(store: store, settings: settings, documents: documents, now: now)
    }

    func deliver(_ items: [StoredMail], lease: String, line: inout Line) {
        // The last send must end before the lease does: past this, the rest is let go.
        let deadline = Date().addingTimeInterval(settings.lease - settings.timeout - 10)
        var done: [(StoredMail, MailAttemptRecord)] = []
        for item in items where Date() < deadline {
            let outcome = send(item, line: line)
            done.append(
                (item, settings.record(outcome, made: item.attempts, now: Date(), random: Double.random(in: 0..<1))))
        }
        finish(done, rest: items.dropFirst(done.count).map(\.id), lease: lease)
    }

    func prune(in session: any StorageSession, deliveredBefore before: String, limit: Int) throws(ServerError) -> Int {
        try session.pruneMail(sentBefore: before, limit: limit)
    }

    /// Hands one message to the relay over the line's connection.
    private func send(_ item: StoredMail, line: Line) -> SMTPOutcome {
        guard let relay = settings.relay else { return .deferred(nil, "no relay is set (--smtp-url)") }
        if line.sender == nil {
            do throws(NetworkingError) {
                line.sender = try SMTPSender(relay: relay)
            } catch {
                return .deferred(nil, error.message)
            }
        }
        guard let sender = line.sender else { return .deferred(nil, "the relay could not be reached") }
        return sender.send(from: settings.from.address, to: [item.recipient], message: Array(item.body.utf8))
    }

    /// Records a batch's attempts under its lease in one write and lets go
    /// of the messages not attempted; counts and logs each (never a message's text).
    private func finish(_ done: [(StoredMail, MailAttemptRecord)], rest: [Int64], lease: String) {
        let kept: [Bool]
        do throws(ServerError) {
            kept = try store.write { session throws(ServerError) -> [Bool] in
                let at = RFC3339.string(Date())
                var kept: [Bool] = []
                for (item, record) in done {
                    kept.append(try session.finishMail(id: item.id, lease: lease, record, at: at))
                }
                try session.releaseMail(ids: rest, lease: lease)
                return kept
            }
        } catch {
            // Unrecorded: the lease runs out and the messages are sent again (same Message-IDs).
            if !diskFull.noted(error, in: log) {
                log.note("\(done.count) mail attempt(s) could not be recorded: \(error.message)", level: .warn)
            }
            return
        }
        for ((item, record), held) in zip(done, kept) { note(item, record, kept: held) }
    }

    /// Counts and logs one attempt.
    private func note(_ item: StoredMail, _ record: MailAttemptRecord, kept: Bool) {
        if kept { metrics.mailAttempted(record.state) }
        var fields: [(String, LogValue)] = [
            ("message", .integer(Int(item.id))), ("kind", .string(item.kind)),
            ("attempt", .integer(item.attempts + 1)), ("outcome", .string(record.state.rawValue)),
            ("code", record.code.map { .integer($0) } ?? .null),
        ]
        if let reply = record.reply { fields.append(("reply", .string(String(reply.prefix(300))))) }
        if !kept { fields.append(("lease", .string("lost to another sender; its record counts"))) }
        log.record(record.state == .sent ? .info : .warn, kind: "mail", fields)
    }
}
