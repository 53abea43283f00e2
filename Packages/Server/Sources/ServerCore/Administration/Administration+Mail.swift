import FieldTypes
import Foundation
import Models
import ServerStore

/// People's addresses and mail choices, and the mail outbox, as admins see them.
extension Administration {
    /// A change of what reaches a person by e-mail; nil leaves each part as it is.
    struct MailChange: Sendable {
        /// A new address, or "" to remove it.
        var email: String?
        var alerts: Set<MailAlert>?
        var digest: DigestFrequency?
        /// Lock the digest on (true) or let the person change it again (false).
        var digestLocked: Bool?

        /// Whether it changes anything.
        var isEmpty: Bool { email == nil && alerts == nil && digest == nil && digestLocked == nil }
    }

    /// What reaches a person by e-mail: their address and choices (their role's defaults until changed).
    struct MailSetup: Sendable {
        var user: StoredUser
        var email: String?
        var preferences: MailPreferences
    }

    /// A person's address and choices.
    func mailSetup(_ who: String, byID: Bool = false) throws(ServerError) -> MailSetup {
        try store.read { session throws(ServerError) -> MailSetup in
            guard let user = try Self.user(who, byID: byID, in: session) else {
                throw ServerError.notFound(
                    "no user '\(OneLine.escaped(String(who.prefix(60))))'; 'admin user list' lists them")
            }
            return MailSetup(
                user: user, email: try session.email(userID: user.id),
                preferences: try session.mailPreferences(userID: user.id) ?? .defaults(for: user.role))
        }
    }

    /// Changes a person's address or choices. An alert their role may not
    /// have is refused; so is turning off a digest an admin locked on,
    /// unless `asAdmin` (the admin commands and API, which may also lock it).
    func changeMail(_ who: String, _ change: MailChange, byID: Bool = false, asAdmin: Bool, by actor: AdminActor)
        throws(ServerError) -> MailSetup
    {
        let email = try change.email.map { (text) throws(ServerError) -> String in
            text.isEmpty ? "" : try MailAddress.validated(text)
        }
        return try self.change(by: actor) { session, events throws(ServerError) -> MailSetup in
            guard let user = try Self.user(who, byID: byID, in: session) else {
                throw ServerError.notFound(
                    "no user '\(OneLine.escaped(String(who.prefix(60))))'; 'admin user list' lists them")
            }
            var detail: [String: JSONValue] = [:]
            if let email {
                try session.setEmail(userID: user.id, email.isEmpty ? nil : email)
                detail["email"] = email.isEmpty ? .null : .string(email)
            }
            var preferences = try session.mailPreferences(userID: user.id) ?? .defaults(for: user.role)
            let chosen = try Self.apply(change, to: preferences, role: user.role, asAdmin: asAdmin)
            if change.alerts != nil || change.digest != nil || change.digestLocked != nil {
                preferences = chosen
                try session.setMailPreferences(userID: user.id, preferences, at: events.at)
                detail["alerts"] = .array(preferences.alerts.sorted().map { .string($0.rawValue) })
                detail["digest"] = .string(preferences.digest.rawValue)
                detail["digest_locked"] = .bool(preferences.digestLocked)
            }
            if !detail.isEmpty { try events.record("user.mail_changed", user.id, .object(detail)) }
            return MailSetup(user: user, email: try session.email(userID: user.id), preferences: preferences)
        }
    }

    /// The choices after `change`, or why it cannot be made.
    static func apply(_ change: MailChange, to current: MailPreferences, role: UserRole, asAdmin: Bool)
        throws(ServerError) -> MailPreferences
    {
        var next = current
        if let alerts = change.alerts {
            let refused = alerts.subtracting(MailAlert.allowed(for: role))
            guard refused.isEmpty else {
                let allowed = MailAlert.allowed(for: role).sorted().map(\.rawValue)
                throw ServerError.badRequest(
                    "a \(role.rawValue) cannot get \(refused.sorted().map(\.rawValue).joined(separator: ", ")) alerts; "
                        + (allowed.isEmpty
                            ? "a \(role.rawValue) gets digests only" : "choose from \(allowed.joined(separator: ", "))")
                )
            }
            next.alerts = alerts
        }
        if let locked = change.digestLocked {
            guard asAdmin else { throw ServerError.forbidden("only an admin may lock or unlock a digest") }
            next.digestLocked = locked
        }
        if let digest = change.digest {
            if current.digestLocked && !asAdmin && digest == .off {
                throw ServerError.forbidden(
                    "your digest is locked on by an admin (your organisation's contract asks for it); it can be daily or weekly"
                )
            }
            next.digest = digest
        }
        if next.digestLocked && next.digest == .off {
            throw ServerError.badRequest("a locked digest must be daily or weekly; give --digest daily or weekly")
        }
        return next
    }

    /// The newest messages of the outbox, newest first.
    func mailQueue(failedOnly: Bool, limit: Int) throws(ServerError) -> [StoredMail] {
        try store.read { try $0.mailMessages(failedOnly: failedOnly, limit: limit) }
    }

    /// Makes a message pending again, due now (the same message and Message-ID).
    func retryMail(_ text: String, by actor: AdminActor) throws(ServerError) -> StoredMail {
        guard let id = Int64(text), id > 0 else {
            throw ServerError.badRequest("'\(OneLine.escaped(String(text.prefix(40))))' is not a message number")
        }
        return try change(by: actor) { session, events throws(ServerError) -> StoredMail in
            guard try session.retryMail(id: id, dueAt: WebhookOutbox.milliseconds(now())),
                var mail = try session.mail(id: id)
            else {
                throw ServerError.notFound("no mail message \(id); 'admin mail queue' lists them")
            }
            try events.record("mail.retried", String(id), ["kind": .string(mail.kind)])
            mail.body = ""
            return mail
        }
    }
}
