import ArgumentParsing
import Foundation
import Models
import Networking
import ServerStore

/// `jqc-server admin mail ...`: a test message through the relay, and the outbox.
extension AdminCommands {
    enum Mail {
        static let address = Argument("ADDRESS", help: "where the test message goes")
        static let failed = Flag("failed", help: "only messages given up on (send them again with 'admin mail retry')")
        static let limit = Option("limit", "N", help: "the newest N (default 100)")
        static let message = Argument("ID", help: "the message's number, from 'admin mail queue'")
    }

    static let mailCommands: [AdminCommand] = [
        AdminCommand(
            "mail test", summary: "send one message through the relay and say what it answered",
            positionals: [Mail.address.spec], options: MailOptions.test,
            discussion:
                "Give the relay's options as 'serve' takes them (--smtp-url, --smtp-user, --smtp-password-file, --mail-from, --public-url). The message is sent at once, not through the outbox."
        ) { parsed, admin throws(ServerError) in
            let settings: MailSettings
            do throws(UsageError) {
                settings = try MailOptions.settings(parsed.parsed)
            } catch {
                throw ServerError.badRequest(error.message)
            }
            guard let relay = settings.relay else {
                throw ServerError.badRequest("'admin mail test' needs --smtp-url, the relay to send through")
            }
            let to = try MailAddress.validated(try parsed[Mail.address])
            let outcome = try admin.sendTestMail(to: to, relay: relay, settings: settings)
            return try testOutput(outcome, to: to, relay: relay)
        },
        AdminCommand(
            "mail queue", summary: "the newest messages: state, attempts, the relay's last answer",
            options: [Mail.failed.spec, Mail.limit.spec]
        ) { parsed, admin throws(ServerError) in
            let list = try admin.mailQueue(
                failedOnly: parsed[Mail.failed], limit: try AdminRoutes.limit(try parsed[Mail.limit]))
            return AdminOutput(
                lines: table(
                    ["ID", "KIND", "TO", "STATE", "ATTEMPTS", "SUBJECT", "LAST"],
                    list.map {
                        [
                            String($0.id), $0.kind, show($0.recipient), $0.state.rawValue, String($0.attempts),
                            show(String($0.subject.prefix(50))), show(String(($0.lastReply ?? "-").prefix(80))),
                        ]
                    }, empty: parsed[Mail.failed] ? "No failed messages." : "No messages yet."),
                json: ["messages": .array(list.map(AdminWire.mail))])
        },
        AdminCommand(
            "mail retry", summary: "send a message again (the same message and Message-ID), now",
            positionals: [Mail.message.spec]
        ) { parsed, admin throws(ServerError) in
            let mail = try admin.retryMail(try parsed[Mail.message], by: actor)
            return AdminOutput(
                lines: ["message \(mail.id) (\(mail.kind) to \(show(mail.recipient))) will be sent again"],
                json: ["message": AdminWire.mail(mail)])
        },
    ]

    /// What `mail test` says: the relay's answer, or why it did not take the message (exit 4 refused, 1 not reached).
    private static func testOutput(_ outcome: SMTPOutcome, to: String, relay: SMTPRelay) throws(ServerError)
        -> AdminOutput
    {
        switch outcome {
        case .accepted(let reply):
            return AdminOutput(
                lines: ["sent to \(show(to)) through \(relay.redactedURL); the relay answered: \(show(reply.text))"],
                json: [
                    "sent": true, "code": reply.code.map { .integer(Int64($0)) } ?? .null, "reply": .string(reply.text),
                ])
        case .refused(let reply):
            throw ServerError.badRequest(
                "the relay \(relay.redactedURL) refused the message to \(show(to)): \(show(reply.text))")
        case .deferred(let reply, let problem):
            throw ServerError(
                status: 503, code: .unavailable,
                "the message to \(show(to)) was not sent through \(relay.redactedURL): "
                    + (reply.map { "\(show($0.text)) (\(problem))" } ?? problem))
        }
    }
}

extension Administration {
    /// Sends one plain test message straight to the relay.
    func sendTestMail(to: String, relay: SMTPRelay, settings: MailSettings) throws(ServerError) -> SMTPOutcome {
        let organisation = try store.read { session throws(ServerError) in
            try OrganisationLook.current(in: session).name
        }
        let now = now()
        let id = MailNotice.messageID(
            kind: "test", about: String(Int64(now.timeIntervalSince1970 * 1000)), userID: "admin",
            domain: settings.domain)
        let text = "This is a test message from JanitorialQC for \(organisation).\r\nIf you read this, mail works.\r\n"
        let message = MailMessage(
            from: settings.from, to: MailAddress(name: nil, address: to), subject: "JanitorialQC test message",
            text: text, html: "<p>\(HTML.escape(text))</p>", messageID: id, date: now,
            headers: [(name: "Auto-Submitted", value: "auto-generated")])
        let sender: SMTPSender
        do throws(NetworkingError) {
            sender = try SMTPSender(relay: relay)
        } catch {
            throw ServerError(status: 503, code: .unavailable, error.message)
        }
        return sender.send(from: settings.from.address, to: [to], message: MailComposer.compose(message))
    }
}

extension AdminWire {
    /// A message of the outbox, without its body.
    static func mail(_ mail: StoredMail) -> JSONValue {
        [
            "id": .integer(mail.id), "message_id": .string(mail.messageID), "kind": .string(mail.kind),
            "recipient": .string(mail.recipient), "subject": .string(mail.subject),
            "state": .string(mail.state.rawValue),
            "attempts": .integer(Int64(mail.attempts)), "last_code": mail.lastCode.map { .integer(Int64($0)) } ?? .null,
            "last_reply": optional(mail.lastReply), "last_attempt_at": optional(mail.lastAttemptAt),
            "sent_at": optional(mail.sentAt), "created_at": .string(mail.createdAt),
        ]
    }
}
