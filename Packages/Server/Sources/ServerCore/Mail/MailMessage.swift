import Foundation

/// A file sent with a message (a report's PDF, a digest's CSV).
struct MailAttachment: Sendable {
    /// The name the reader saves it under; any text, non-ASCII included.
    var fileName: String
    /// Its media type, `type/subtype` (`application/pdf`); anything else is sent as `application/octet-stream`.
    var contentType: String
    /// Its bytes.
    var bytes: [UInt8]
}

/// An e-mail message as the server writes it: one sender, one recipient,
/// a plain-text and an HTML version of one text, and files; `MailComposer`
/// makes its bytes.
struct MailMessage: Sendable {
    /// The sender.
    var from: MailAddress
    /// The one recipient.
    var to: MailAddress
    /// The subject, from outside: it may hold line breaks, `Bcc:` or a thousand non-ASCII characters.
    var subject: String
    /// The plain-text part.
    var text: String
    /// The HTML part, every interpolated value already escaped by the caller.
    var html: String
    /// The files, after the text.
    var attachments: [MailAttachment] = []
    /// The id without its angle brackets (`report.failed.r_123.u_4@jqc.example.org`):
    /// dot-atoms of printable ASCII on either side of one `@`.
    var messageID: String
    /// When the message was made, written in UTC.
    var date: Date
    /// Fixed headers the server adds after `MIME-Version` (`Auto-Submitted: auto-generated`,
    /// `List-Unsubscribe: <https://...>`); one named as a header the composer writes itself
    /// (`Date`, `From`, `To`, `Subject`, `Message-ID`, `MIME-Version`, `Content-*`), or
    /// with a name that is not a field name, is left out.
    var headers: [(name: String, value: String)] = []
}
