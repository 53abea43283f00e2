import Foundation
import Models
import ServerStore

/// What one message says, before it is written for a person: its subject,
/// a heading, the facts (text from outside, escaped in the HTML part), the
/// console page it is about, and what it is about, which with its kind and
/// its recipient makes its Message-ID.
struct MailNotice: Sendable {
    /// The alert's name, or `digest-daily`, `digest-weekly`.
    var kind: String
    /// What the message is about (a report's or an action's id, a period): with the kind and the person, its identity.
    var about: String
    var subject: String
    var heading: String
    /// One line each.
    var lines: [String]
    /// The console page it is about, under `/console` (for example `/reports/r_12`).
    var page: String
    /// What the link to it says.
    var pageLabel: String
    /// Files attached (a digest's site summary).
    var attachments: [MailAttachment] = []

    /// The message for `person` of `organisation` from `settings.from`, dated `date`: plain
    /// text and HTML, both linking to the page and to the person's choices.
    func message(for person: MailRecipient, settings: MailSettings, organisation: String, date: Date) -> MailMessage {
        let pageURL = settings.publicURL + "/console" + page
        let choicesURL = settings.publicURL + "/console" + ConsoleEndpoint.mail.pattern
        var text = heading + "\r\n\r\n"
        for line in lines { text += line + "\r\n" }
        text += "\r\n\(pageLabel): \(pageURL)\r\n\r\n-- \r\n"
        text += "You get this e-mail as \(person.username) at \(organisation). "
        text += "Choose what reaches you: \(choicesURL)\r\n"
        var html = "<!DOCTYPE html><html><body>"
        html += "<h1 style=\"font-size:18px\">\(HTML.escape(heading))</h1><ul>"
        for line in lines { html += "<li>\(HTML.escape(line))</li>" }
        html += "</ul><p><a href=\"\(HTML.escape(pageURL))\">\(HTML.escape(pageLabel))</a></p>"
        html += "<hr><p style=\"color:#555;font-size:12px\">You get this e-mail as \(HTML.escape(person.username))"
        html += " at \(HTML.escape(organisation)). "
        html += "<a href=\"\(HTML.escape(choicesURL))\">Choose what reaches you</a>.</p></body></html>"
        return MailMessage(
            from: settings.from, to: MailAddress(name: person.displayName, address: person.email),
            subject: subject, text: text, html: html, attachments: attachments,
            messageID: Self.messageID(kind: kind, about: about, userID: person.userID, domain: settings.domain),
            date: date, headers: [(name: "Auto-Submitted", value: "auto-generated")])
    }

    /// The message's identity: made from what it is, what it is about and for
    /// whom, so making it again (another instance, a retried transaction) makes
    /// the same id, which the outbox holds once.
    static func messageID(kind: String, about: String, userID: String, domain: String) -> String {
        let left = [kind, about, userID].map(Self.atom).joined(separator: ".")
        return left + "@" + domain
    }

    /// Text kept to what a Message-ID's left part may hold: letters, digits,
    /// `-` and `_`; anything else as `=` and its bytes in hex.
    static func atom(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                out += "=" + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}
