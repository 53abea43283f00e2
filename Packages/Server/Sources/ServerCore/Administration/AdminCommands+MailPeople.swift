import ArgumentParsing
import Models
import ServerStore

/// `admin user update`'s mail options: a person's address and what reaches them.
enum MailPeople {
    static let email = Option("email", "ADDRESS", help: "their e-mail address; \"\" removes it (no mail then)")
    static let alerts = Option(
        "alerts", "LIST",
        help:
            "the alerts sent right away, comma-separated: \(MailAlert.allCases.map(\.rawValue).joined(separator: ", ")); or none"
    )
    static let digest = Option(
        "digest", "WHEN", values: DigestFrequency.allCases.map(\.rawValue),
        help: "their digest: off, daily or weekly (07:00 in the organisation's time zone)",
        as: Conversion<DigestFrequency>.choice(otherwise: { word, label in
            "\(label) must be off, daily or weekly, not '\(word)'."
        }))
    static let lockDigest = Flag(
        "lock-digest", help: "keep their digest on: they cannot turn it off (a contract asks for it)")
    static let unlockDigest = Flag("unlock-digest", help: "let them turn their digest off again")

    static let options: [OptionSpec] = [email.spec, alerts.spec, digest.spec, lockDigest.spec, unlockDigest.spec]

    /// The change the options ask for.
    static func change(_ parsed: AdminArguments) throws(ServerError) -> Administration.MailChange {
        var change = Administration.MailChange()
        change.email = try parsed[email]
        change.digest = try parsed[digest]
        if parsed[lockDigest] && parsed[unlockDigest] {
            throw ServerError.badRequest("give --lock-digest or --unlock-digest, not both")
        }
        if parsed[lockDigest] { change.digestLocked = true }
        if parsed[unlockDigest] { change.digestLocked = false }
        if let list = try parsed[alerts] { change.alerts = try alertList(list) }
        return change
    }

    /// `LIST` as alerts: names, `none`, or `default` (an empty set is kept as `none`, `default` as nil below).
    static func alertList(_ text: String) throws(ServerError) -> Set<MailAlert> {
        let words = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
        if words == ["none"] { return [] }
        var out = Set<MailAlert>()
        for word in words {
            guard let alert = MailAlert(rawValue: word) else {
                throw ServerError.badRequest(
                    "'\(AdminCommands.show(String(word.prefix(40))))' is not an alert; give any of \(MailAlert.allCases.map(\.rawValue).joined(separator: ", ")), or none"
                )
            }
            out.insert(alert)
        }
        return out
    }

    /// What reaches a person, in lines.
    static func lines(_ setup: Administration.MailSetup) -> [String] {
        let user = AdminCommands.show(setup.user.username)
        let address = setup.email.map { AdminCommands.show($0) } ?? "no e-mail address (nothing is sent)"
        let alerts =
            setup.preferences.alerts.isEmpty
            ? "no alerts" : "alerts: " + setup.preferences.alerts.sorted().map(\.rawValue).joined(separator: ", ")
        let digest =
            "digest: \(setup.preferences.digest.rawValue)\(setup.preferences.digestLocked ? " (locked on)" : "")"
        return ["user \(user): \(address); \(alerts); \(digest)"]
    }
}

extension AdminWire {
    /// A person's address and mail choices.
    static func mail(_ setup: Administration.MailSetup) -> JSONValue {
        [
            "email": optional(setup.email),
            "alerts": .array(setup.preferences.alerts.sorted().map { .string($0.rawValue) }),
            "digest": .string(setup.preferences.digest.rawValue),
            "digest_locked": .bool(setup.preferences.digestLocked),
        ]
    }
}
