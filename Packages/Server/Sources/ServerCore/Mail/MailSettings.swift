import Foundation
import Models
import Networking
import ServerStore

/// How this instance sends mail (`--smtp-*`, `--mail-*`, `--public-url`).
struct MailSettings: Sendable {
    /// The relay; nil when no `--smtp-url` was given: no message is made or sent.
    var relay: SMTPRelay?
    /// Whom messages come from (`--mail-from`).
    var from = MailAddress(name: "JanitorialQC", address: "jqc@localhost")
    /// The console's address as people reach it (`--public-url`), without a trailing slash: every link starts with it.
    var publicURL = "http://localhost"
    /// Threads sending at once; 0 leaves the outbox to other instances.
    var senders = 2
    /// Seconds one message may take to hand to the relay (`--smtp-timeout`).
    var timeout: TimeInterval = 60
    /// Seconds a message stays with the instance that took it: longer than a send may take.
    var lease: TimeInterval = 180
    /// Seconds before the second attempt; each later one waits twice as long, up to `longestDelay`.
    var firstDelay: TimeInterval = 30
    var longestDelay: TimeInterval = 3600
    /// Attempts before a message is `failed` (a relay refusing it for good fails it at once).
    var attempts = 12
    /// Days a sent message is kept.
    var keepDays = 30
    /// Seconds an idle sender waits before looking for due messages again.
    var poll: TimeInterval = 1
    /// An alert about an event older than this (hours) is not made: mail was off, or behind, when it happened.
    var freshHours = 24

    /// Whether mail is on.
    var isOn: Bool { relay != nil }

    /// The right part of every Message-ID: the sender address's domain.
    var domain: String {
        let address = from.address
        guard let at = address.lastIndex(of: "@") else { return "localhost" }
        return String(address[address.index(after: at)...])
    }

    /// What an attempt's outcome leaves: sent when the relay took it;
    /// failed for good on a 5xx, the answer kept; otherwise another attempt
    /// after the outbox's delay, or failed once `attempts` are spent. `made`
    /// counts the attempts before this one.
    func record(_ outcome: SMTPOutcome, made: Int, now: Date, random: Double) -> MailAttemptRecord {
        let attempt = made + 1
        switch outcome {
        case .accepted(let reply):
            return MailAttemptRecord(state: .sent, nextAttemptAt: nil, code: reply.code, reply: reply.text)
        case .refused(let reply):
            return MailAttemptRecord(state: .failed, nextAttemptAt: nil, code: reply.code, reply: reply.text)
        case .deferred(let reply, let problem):
            let text = reply.map { "\($0.text) (\(problem))" } ?? problem
            guard attempt < attempts else {
                return MailAttemptRecord(
                    state: .failed, nextAttemptAt: nil, code: reply?.code,
                    reply: "\(text); gave up after \(attempt) attempts")
            }
            let delay = OutboxTiming.backoff(
                afterAttempt: attempt, first: firstDelay, longest: longestDelay, random: random)
            return MailAttemptRecord(
                state: .pending, nextAttemptAt: WebhookOutbox.milliseconds(now.addingTimeInterval(delay)),
                code: reply?.code, reply: text)
        }
    }

    /// The outbox's timing.
    var timing: OutboxTiming { OutboxTiming(senders: senders, lease: lease, poll: poll, keepDays: keepDays) }
}
