import Foundation
import Models
import ServerStore

/// Who is told right away of what, in one pass of the outbox: each event
/// read becomes a notice for each person whose choices (within what their
/// role may choose) ask for it, written as one message each. A client is
/// never told anything right away: what they see is approved work, in digests.
struct MailAlerts {
    let session: any StorageSession
    let settings: MailSettings
    let now: Date
    let people: [MailRecipient]
    let look: OrganisationLook
    /// The messages made so far.
    private(set) var messages: [NewMail] = []
    private var facilityNames: [String: String] = [:]
    private var templateNames: [String: String] = [:]

    init(session: any StorageSession, settings: MailSettings, now: Date) throws(ServerError) {
        self.session = session
        self.settings = settings
        self.now = now
        people = try session.mailRecipients()
        look = try OrganisationLook.current(in: session)
        for facility in try session.facilities() { facilityNames[facility.id] = facility.name }
    }

    /// Whether an event at `at` is recent enough to be told of right away.
    func isFresh(_ at: String) -> Bool {
        guard let date = RFC3339.date(at) else { return false }
        return now.timeIntervalSince(date) <= Double(settings.freshHours) * 3600
    }

    /// The people who chose `alert` and may choose it, among `candidates` (everyone when nil).
    func choosing(_ alert: MailAlert, among candidates: Set<String>? = nil) -> [MailRecipient] {
        people.filter { person in
            (candidates?.contains(person.userID) ?? true) && person.preferences.alerts.contains(alert)
                && MailAlert.allowed(for: person.role).contains(alert)
        }
    }

    /// Supervisors and admins who chose `alert`: the organisation's sites are theirs.
    func overseers(_ alert: MailAlert, except actor: String? = nil) -> [MailRecipient] {
        choosing(alert).filter { ($0.role == .supervisor || $0.role == .admin) && $0.userID != actor }
    }

    /// Writes `notice` for each of `people`, once each.
    mutating func send(_ notice: MailNotice, to recipients: [MailRecipient]) {
        var seen = Set<String>()
        for person in recipients where seen.insert(person.userID).inserted {
            let message = notice.message(for: person, settings: settings, organisation: look.name, date: now)
            messages.append(
                NewMail(
                    messageID: message.messageID, kind: notice.kind, userID: person.userID, recipient: person.email,
                    subject: MailText.oneLine(notice.subject),
                    body: String(decoding: MailComposer.compose(message), as: UTF8.self)))
        }
    }

    /// A site's name, or its id when the server no longer has it.
    func facilityName(_ id: String) -> String { facilityNames[id] ?? id }

    /// A template's name, read once.
    mutating func templateName(_ id: String) throws(ServerError) -> String {
        if let name = templateNames[id] { return name }
        let name = try session.template(id: id)?.name ?? id
        templateNames[id] = name
        return name
    }
}

/// Text of a message's headers and lines.
enum MailText {
    /// `text` on one line, each run of control characters (a CR LF) as one space, at most 200 characters
    /// (the composer encodes the rest).
    static func oneLine(_ text: String) -> String {
        var flat = String.UnicodeScalarView()
        var inControls = false
        for scalar in text.unicodeScalars {
            let control = scalar.properties.generalCategory == .control
            if control && !inControls { flat.append(" ") }
            if !control { flat.append(scalar) }
            inControls = control
        }
        let line = String(flat)
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }

    /// A score as people read it: "62.5%", or "not scored".
    static func score(_ score: Double?) -> String {
        guard let score else { return "not scored" }
        let percent = (score * 1000).rounded() / 10
        return percent == percent.rounded() ? "\(Int(percent))%" : "\(percent)%"
    }
}
