import Foundation

/// Makes the bytes of a `MailMessage` (RFC 5322 with MIME, RFC 2045-2047,
/// 2231): CRLF line endings only, no line over 998 octets (headers folded at
/// 78, bodies at 76), 7-bit clean, ready for SMTP `DATA`. No line starts
/// with `.`, so the transport's dot-stuffing finds nothing to change.
///
/// The body is `multipart/alternative` (the plain text, then the HTML, each
/// UTF-8 in quoted-printable) or, with attachments, `multipart/mixed` with
/// that first and each file in base64 after it.
enum MailComposer {
    /// The headers the composer writes itself, which `MailMessage.headers` may not repeat.
    static let ownHeaders: Set<String> = [
        "date", "from", "to", "subject", "message-id", "mime-version", "content-type",
        "content-transfer-encoding", "content-disposition",
    ]

    /// The message's bytes, with boundaries from a random seed.
    static func compose(_ message: MailMessage) -> [UInt8] {
        compose(message, boundarySeed: UInt64.random(in: .min ... .max))
    }

    /// The message's bytes; the same message and seed give the same bytes.
    static func compose(_ message: MailMessage, boundarySeed: UInt64) -> [UInt8] {
        let boundaries = MailBoundaries(seed: boundarySeed)
        var lines = headerLines(message, boundaries: boundaries)
        if message.attachments.isEmpty {
            lines += multipartHeader("alternative", boundary: boundaries.alternative) + [""]
            lines += alternativeBody(message, boundary: boundaries.alternative)
        } else {
            lines += multipartHeader("mixed", boundary: boundaries.mixed) + [""]
            lines += ["--" + boundaries.mixed]
            lines += multipartHeader("alternative", boundary: boundaries.alternative) + [""]
            lines += alternativeBody(message, boundary: boundaries.alternative)
            for attachment in message.attachments {
                lines += ["--" + boundaries.mixed] + attachmentPart(attachment)
            }
            lines += ["--" + boundaries.mixed + "--"]
        }
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// Whether `id` can be a Message-ID as it is: dot-atoms of printable
    /// ASCII on either side of one `@` (RFC 5322 §3.6.4), short enough for its line.
    static func isMessageID(_ id: String) -> Bool {
        let sides = id.split(separator: "@", omittingEmptySubsequences: false)
        return sides.count == 2 && id.utf8.count <= 250
            && sides.allSatisfy { side in
                !side.isEmpty && !side.hasPrefix(".") && !side.hasSuffix(".") && !side.contains("..")
                    && side.utf8.allSatisfy { $0 == UInt8(ascii: ".") || MailAddress.isAtomText($0) }
            }
    }

    /// The message's headers, in their order, before its `Content-Type`.
    private static func headerLines(_ message: MailMessage, boundaries: MailBoundaries) -> [String] {
        // An id that fails the check is a fault of the server's own code; the
        // message still leaves, with an id made from the seed on the sender's domain.
        let id =
            isMessageID(message.messageID)
            ? message.messageID : "jqc.\(boundaries.core)@\(senderDomain(message.from.address))"
        var headers = [
            MailHeader("Date", segments: [MailDate.written(message.date)]),
            MailHeader.mailbox("From", message.from),
            MailHeader.mailbox("To", message.to),
            MailHeader.text("Subject", message.subject),
            MailHeader("Message-ID", segments: ["<" + id + ">"]),
            MailHeader("MIME-Version", segments: ["1.0"]),
        ]
        for extra in message.headers where isExtraHeaderName(extra.name) {
            headers.append(MailHeader.fixed(extra.name, extra.value))
        }
        return headers.flatMap(\.lines)
    }

    /// Whether `name` may be an extra header: a letter, then letters, digits
    /// and hyphens (a field name as the server writes them, RFC 5322 §3.6.8),
    /// and none of the composer's own.
    private static func isExtraHeaderName(_ name: String) -> Bool {
        guard let first = name.first, first.isASCII, first.isLetter, name.utf8.count <= 76 else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "-") || MIMEEncoding.isLetterOrDigit($0) }
            && !ownHeaders.contains(name.lowercased())
    }

    /// The domain of the sender's address, when it is a dot-atom, else `localhost`.
    private static func senderDomain(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return "localhost" }
        let domain = String(address[address.index(after: at)...])
        return isMessageID("x@" + domain) ? domain : "localhost"
    }

    /// The `Content-Type` header of a multipart body.
    private static func multipartHeader(_ subtype: String, boundary: String) -> [String] {
        MailHeader("Content-Type", segments: ["multipart/\(subtype);", " boundary=\"\(boundary)\""]).lines
    }

    /// The plain text and the HTML, each a part of `boundary`, and its closing delimiter.
    private static func alternativeBody(_ message: MailMessage, boundary: String) -> [String] {
        var lines: [String] = []
        for (subtype, text) in [("plain", message.text), ("html", message.html)] {
            lines += ["--" + boundary]
            lines += MailHeader("Content-Type", segments: ["text/\(subtype);", " charset=UTF-8"]).lines
            lines += ["Content-Transfer-Encoding: quoted-printable", ""]
            lines += MIMEEncoding.quotedPrintableLines(text)
        }
        return lines + ["--" + boundary + "--"]
    }

    /// An attachment's headers and its bytes in base64.
    private static func attachmentPart(_ attachment: MailAttachment) -> [String] {
        let name = MailFileName(attachment.fileName)
        var lines = MailHeader("Content-Type", segments: [mediaType(attachment.contentType) + ";", name.typeParameter])
            .lines
        lines += MailHeader("Content-Disposition", segments: ["attachment;"] + name.dispositionParameters).lines
        lines += ["Content-Transfer-Encoding: base64", ""]
        return lines + MIMEEncoding.base64Lines(attachment.bytes)
    }

    /// `type` when it is a media type (`type/subtype`, RFC 2045 tokens), else `application/octet-stream`.
    private static func mediaType(_ type: String) -> String {
        let tokens = type.split(separator: "/", omittingEmptySubsequences: false)
        let isToken: (Substring) -> Bool = { token in
            !token.isEmpty && token.utf8.count <= 64
                && token.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !"()<>@,;:\\\"/[]?=".utf8.contains($0) }
        }
        return tokens.count == 2 && tokens.allSatisfy(isToken) ? type : "application/octet-stream"
    }
}

/// The two boundaries of a message, `=_` and the seed in hexadecimal, then
/// `_m` for the mixed body and `_a` for the alternative one.
///
/// A boundary must never occur in the parts it separates (RFC 2046 §5.1.1).
/// A delimiter line is `--` and the boundary, so it starts `--=_`, and no
/// line of a part can: quoted-printable never writes `=_` (its `=` is always
/// followed by two hexadecimal digits or ends the line), base64's alphabet
/// has neither `_` nor `-`, and part headers start with a name or a space.
/// The two boundaries have the same length and differ in their last
/// character, so neither is the start of the other.
struct MailBoundaries {
    /// The seed in hexadecimal, 16 digits.
    let core: String
    /// The boundary of the `multipart/mixed` body.
    var mixed: String { "=_" + core + "_m" }
    /// The boundary of the `multipart/alternative` body.
    var alternative: String { "=_" + core + "_a" }

    /// The boundaries made from `seed`.
    init(seed: UInt64) {
        let hex = String(seed, radix: 16)
        core = String(repeating: "0", count: 16 - hex.count) + hex
    }
}
