import Foundation
@testable import ServerCore
import ServerStore
import Testing
import TestSupport

/// A composed message as Python's standard library reads it in strict mode
/// (`Tests/Fixtures/mail/read-message.py`, run as a separate process).
struct ReadMessage: Decodable {
    struct Mailbox: Decodable {
        let addrSpec: String
        let displayName: String
        let pythonDisplayName: String
    }

    struct Part: Decodable {
        let contentType: String
        let charset: String?
        let transferEncoding: String?
        let filename: String?
        let defects: [String]
        let text: String?
        let sha256: String?
        let size: Int?
    }

    let headers: [[String]]
    let mailboxes: [String: Mailbox?]
    let parts: [Part]
    let defects: [String]

    /// The decoded values of every header named `name`.
    func values(_ name: String) -> [String] {
        headers.filter { $0.first?.lowercased() == name.lowercased() }.map { $0.count > 1 ? $0[1] : "" }
    }

    /// The header names, in order.
    var names: [String] { headers.compactMap(\.first) }

    /// The leaf parts of `type`.
    func parts(_ type: String) -> [Part] { parts.filter { $0.contentType == type } }

    /// `bytes` read by the script, after checking the bytes as SMTP carries them.
    static func read(_ bytes: [UInt8]) throws -> ReadMessage {
        try checkLines(bytes)
        let folder = TemporaryDirectory(prefix: "jqc-mail")
        let file = folder.path("message.eml")
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let script = Fixtures.url("mail/read-message.py").path
        let process = try ChildProcess(
            "/usr/bin/env", ["python3", script, file], environment: ProcessInfo.processInfo.environment,
            stdout: .pipe, stderr: .pipe)
        let output = try process.output?.readToEnd() ?? Data()
        let errors = try process.errors?.readToEnd() ?? Data()
        let exit = process.wait()
        try #require(exit.status == 0, "Python could not read the message: \(String(decoding: errors, as: UTF8.self))")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(ReadMessage.self, from: output)
    }

    /// Every line ends with CRLF, is at most 998 octets (header lines at most
    /// 78) and does not start with a dot; every byte is ASCII.
    static func checkLines(_ bytes: [UInt8]) throws {
        #expect(bytes.allSatisfy { $0 < 0x80 }, "a byte is not ASCII")
        #expect(bytes.suffix(2) == [0x0D, 0x0A], "the message does not end with CRLF")
        var inHeader = true
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            #expect(line.last == 0x0D, "a line ends with a lone LF: \(String(decoding: line, as: UTF8.self))")
            #expect(!line.dropLast().contains(0x0D), "a line holds a lone CR")
            #expect(line.count - 1 <= 998, "a line of \(line.count - 1) octets")
            #expect(line.first != UInt8(ascii: "."), "a line starts with '.', which SMTP would have to double")
            if line.count == 1 { inHeader = false }
            if inHeader { #expect(line.count - 1 <= 78, "a header line of \(line.count - 1) octets") }
            for word in line.split(separator: 0x20) where word.starts(with: Array("=?UTF-8?B?".utf8)) {
                try checkEncodedWord(String(decoding: word, as: UTF8.self).trimmingCharacters(in: .newlines))
            }
        }
    }

    /// An encoded-word is at most 75 characters and holds whole UTF-8 characters (RFC 2047 §2, §5).
    static func checkEncodedWord(_ word: String) throws {
        #expect(word.count <= 75, "an encoded-word of \(word.count) characters")
        let payload = try #require(Data(base64Encoded: String(word.dropFirst(10).dropLast(2))), "\(word)")
        #expect(String(data: payload, encoding: .utf8) != nil, "\(word) cuts a UTF-8 character")
    }
}

@Suite("Mail: messages composed as RFC 5322 / MIME and read back by Python's strict parser")
struct MailComposerTests {
    static let date = Date(timeIntervalSince1970: 1_796_668_200) // Mon, 07 Dec 2026 18:30:00 UTC

    static func message(
        subject: String = "Report failed: Harbour Office", fromName: String? = "JanitorialQC",
        toName: String? = "Inspector One", text: String = "Hello", html: String = "<p>Hello</p>",
        attachments: [MailAttachment] = []
    ) -> MailMessage {
        MailMessage(
            from: MailAddress(name: fromName, address: "alerts@jqc.example.org"),
            to: MailAddress(name: toName, address: "inspector.one+tag@example.org"), subject: subject, text: text,
            html: html, attachments: attachments, messageID: "report.failed.r_123.u_4@jqc.example.org",
            date: date,
            headers: [
                ("Auto-Submitted", "auto-generated"),
                ("List-Unsubscribe", "<https://jqc.example.org/unsubscribe/u_4>"),
            ])
    }

    /// `text` with each line break (CRLF, LF, CR) a CRLF, as the parts carry it.
    static func crlf(_ text: String) -> String {
        var out = ""
        for character in text {
            out += character == "\n" || character == "\r" || character == "\r\n" ? "\r\n" : String(character)
        }
        return out
    }

    @Test("a plain message: its headers in order, and both parts with the exact texts")
    func plainMessage() throws {
        let long = String(repeating: "Floor polished, bins emptied é ", count: 66)
        let text =
            "Bonjour é, 日本語 🧹👩🏽‍🔧\r\nFrom the start\n.\n"
            + "a = b  \ttabbed\t\nlone CR\rend  \n\(long)\n=?UTF-8?B?w6k=?= stays text"
        let html = "<p>Caf\u{E9} &amp; 日本語</p>\n<p>From here</p>\r\n" + String(repeating: "x", count: 2_000)
        let read = try ReadMessage.read(MailComposer.compose(Self.message(text: text, html: html)))
        #expect(read.defects.isEmpty, "\(read.defects)")
        #expect(
            read.names == [
                "Date", "From", "To", "Subject", "Message-ID", "MIME-Version", "Auto-Submitted", "List-Unsubscribe",
                "Content-Type",
            ])
        #expect(read.values("Date") == ["Mon, 07 Dec 2026 18:30:00 +0000"])
        #expect(read.values("Message-ID") == ["<report.failed.r_123.u_4@jqc.example.org>"])
        #expect(read.values("Subject") == ["Report failed: Harbour Office"])
        #expect(read.values("List-Unsubscribe") == ["<https://jqc.example.org/unsubscribe/u_4>"])
        #expect(read.mailboxes["From"]??.displayName == "JanitorialQC")
        #expect(read.mailboxes["To"]??.addrSpec == "inspector.one+tag@example.org")
        #expect(read.parts.map(\.contentType) == ["multipart/alternative", "text/plain", "text/html"])
        #expect(read.parts("text/plain").first?.text == Self.crlf(text))
        #expect(read.parts("text/html").first?.text == Self.crlf(html))
        #expect(
            read.parts.dropFirst().allSatisfy { $0.charset == "utf-8" && $0.transferEncoding == "quoted-printable" })
    }

    @Test("attachments decode to the same bytes under their names, after the text")
    func attachments() throws {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<4_096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let pdf =
            Array("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n1 0 obj << /Type /Catalog >> endobj\n".utf8)
            + [0, 0xFF, 0x0D, 0x0A, 0x3D, 0x5F] + Array("\ntrailer\n%%EOF\n".utf8)
        let long = String(repeating: "Relevé de nettoyage 日本語 ", count: 40) + ".pdf"
        let files = [
            MailAttachment(fileName: "noise.bin", contentType: "application/octet-stream", bytes: noise),
            MailAttachment(fileName: "Rapport d'été 日本語.pdf", contentType: "application/pdf", bytes: pdf),
            MailAttachment(fileName: long, contentType: "application/pdf", bytes: []),
            MailAttachment(
                fileName: "odd\"name\r\n.csv", contentType: "text/csv\r\nBcc: x", bytes: Array("a,b\n".utf8)),
        ]
        let read = try ReadMessage.read(MailComposer.compose(Self.message(text: "See attached", attachments: files)))
        #expect(read.defects.isEmpty, "\(read.defects)")
        #expect(
            read.parts.map(\.contentType) == [
                "multipart/mixed", "multipart/alternative", "text/plain", "text/html", "application/octet-stream",
                "application/pdf", "application/pdf", "application/octet-stream",
            ])
        #expect(read.parts("text/plain").first?.text == "See attached")
        let attached = Array(read.parts.suffix(4))
        #expect(attached.map(\.filename) == ["noise.bin", "Rapport d'été 日本語.pdf", long, "odd\"name  .csv"])
        #expect(attached.map(\.sha256) == files.map { Digest.sha256Hex(Data($0.bytes)) })
        #expect(attached.map(\.size) == files.map(\.bytes.count))
        #expect(read.values("Bcc").isEmpty)
    }

    /// Text from outside that tries to end a header, or is too long for one line.
    static let hostile: [OutsideText] = [
        OutsideText("a line break and Bcc", "Site\r\nBcc: evil@x.invalid", read: "Site  Bcc: evil@x.invalid"),
        OutsideText("a lone LF", "A\nB", read: "A B"),
        OutsideText(
            "1,000 non-ASCII characters",
            String(repeating: "é", count: 500) + String(repeating: "日", count: 300) + String(repeating: "🧹", count: 200)
        ),
        OutsideText("1,000 ASCII characters without a space", String(repeating: "x", count: 1_000)),
        OutsideText(
            "tab, DEL, NEL, LS, PS, NUL", "tab\there, DEL\u{7F}, NEL\u{85}, LS\u{2028}, PS\u{2029}, NUL\u{0}",
            read: "tab here, DEL , NEL , LS , PS , NUL "),
        OutsideText("spaces at both ends", " leading and trailing spaces "),
        OutsideText("what looks like an encoded-word", "=?UTF-8?B?QmNjOiBldmlsQHguaW52YWxpZA==?= looks encoded"),
        OutsideText("specials", "\"quoted\" \\ back, comma; colon: <angle> (paren) [square]"),
        OutsideText("nothing", ""),
    ]

    @Test(
        "a hostile subject gives exactly one Subject, no Bcc, and decodes to the text with controls as spaces",
        arguments: hostile)
    func hostileSubject(_ subject: OutsideText) throws {
        let read = try ReadMessage.read(MailComposer.compose(Self.message(subject: subject.text)))
        #expect(read.defects.isEmpty, "\(read.defects)")
        #expect(read.values("Subject") == [subject.read])
        #expect(read.values("Bcc").isEmpty)
        #expect(read.names.count == 9)
    }

    @Test(
        "a hostile display name stays inside its mailbox and decodes to the text with controls as spaces",
        arguments: hostile)
    func hostileDisplayName(_ name: OutsideText) throws {
        let read = try ReadMessage.read(MailComposer.compose(Self.message(fromName: name.text, toName: name.text)))
        #expect(read.defects.isEmpty, "\(read.defects)")
        #expect(read.values("Bcc").isEmpty)
        #expect(read.names.count == 9)
        for header in ["From", "To"] {
            #expect(read.values(header).count == 1)
            let mailbox = try #require(read.mailboxes[header] ?? nil)
            #expect(mailbox.displayName == name.read)
        }
        #expect(read.mailboxes["From"]??.addrSpec == "alerts@jqc.example.org")
        #expect(read.mailboxes["To"]??.addrSpec == "inspector.one+tag@example.org")
    }

    @Test("extra headers keep their place and their line; one the composer writes itself is left out")
    func extraHeaders() throws {
        var message = Self.message()
        message.headers = [
            ("Auto-Submitted", "auto-generated\r\nBcc: evil@x.invalid"),
            ("Subject", "a second subject"),
            ("Bad Name", "x"),
            (".Dot", "x"),
            ("X-Report", "Relevé 日本語"),
        ]
        let read = try ReadMessage.read(MailComposer.compose(message))
        #expect(read.defects.isEmpty, "\(read.defects)")
        #expect(
            read.names == [
                "Date", "From", "To", "Subject", "Message-ID", "MIME-Version", "Auto-Submitted", "X-Report",
                "Content-Type",
            ])
        #expect(read.values("Auto-Submitted") == ["auto-generated  Bcc: evil@x.invalid"])
        #expect(read.values("X-Report") == ["Relevé 日本語"])
        #expect(read.values("Subject") == ["Report failed: Harbour Office"])
    }

    @Test("the same message and seed give the same bytes; another seed other boundaries")
    func determinism() {
        let message = Self.message(attachments: [
            MailAttachment(fileName: "a.txt", contentType: "text/plain", bytes: [65])
        ])
        #expect(MailComposer.compose(message, boundarySeed: 7) == MailComposer.compose(message, boundarySeed: 7))
        #expect(MailComposer.compose(message, boundarySeed: 7) != MailComposer.compose(message, boundarySeed: 8))
    }

    @Test("a message id that fails the check is replaced by one on the sender's domain")
    func badMessageID() throws {
        var message = Self.message()
        message.messageID = "two@at@signs <and> spaces"
        let read = try ReadMessage.read(MailComposer.compose(message, boundarySeed: 0x2A))
        #expect(read.values("Message-ID") == ["<jqc.000000000000002a@jqc.example.org>"])
        #expect(MailComposer.isMessageID("report.failed.r_123.u_4@jqc.example.org"))
        #expect(!MailComposer.isMessageID("a b@c"))
    }

    @Test("dates are written in UTC with English names, whatever the fraction of a second")
    func dates() {
        #expect(MailDate.written(Self.date.addingTimeInterval(0.999)) == "Mon, 07 Dec 2026 18:30:00 +0000")
        #expect(MailDate.written(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 +0000")
        #expect(MailDate.written(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 +0000")
    }

    @Test(
        "a typed address is refused in one line naming it",
        arguments: [
            OutsideText("a line break and Bcc", "a@b\r\nBcc:x"), OutsideText("no @", "no-at"),
            OutsideText("a space", "a b@c.org"), OutsideText("angle brackets", "<a@b>"), OutsideText("nothing", ""),
            OutsideText("256 characters", String(repeating: "a", count: 250) + "@b.org"),
            OutsideText("two @", "two@@example.org"), OutsideText("a leading dot", ".dot@example.org"),
            OutsideText("a domain with end hyphens", "a@-bad-.org"), OutsideText("non-ASCII", "é@example.org"),
        ])
    func refusedAddress(_ address: OutsideText) throws {
        let error = try #require(throws: ServerError.self) { try MailAddress.validated(address.text) }
        #expect(error.code == .badRequest)
        #expect(!error.message.contains("\n") && !error.message.contains("\r"))
        #expect(error.message.hasPrefix("the e-mail address '"))
        #expect(error.message.hasSuffix("; type one address such as name@example.org"))
    }

    @Test("a refusal says every problem of the address")
    func refusalMessages() {
        #expect(
            throws: ServerError.badRequest(
                "the e-mail address 'a b@c.org' holds a space; type one address such as name@example.org")
        ) {
            try MailAddress.validated("a b@c.org")
        }
        #expect(
            throws: ServerError.badRequest(
                "the e-mail address '<a@b>' holds '<' before the '@' and has a domain 'b>' that is not a host name such as example.org; type one address such as name@example.org"
            )
        ) { try MailAddress.validated("<a@b>") }
    }

    @Test("a typed address with a tag, dots and a subdomain is accepted as typed")
    func acceptedAddress() throws {
        #expect(try MailAddress.validated("inspector.one+tag@example.org") == "inspector.one+tag@example.org")
        #expect(try MailAddress.validated("o'brien_2@mail.example.co.uk") == "o'brien_2@mail.example.co.uk")
    }
}

/// Text from outside, named for the test's log (the text itself may hold controls or be 1,000 characters long).
struct OutsideText: Sendable, CustomTestStringConvertible {
    let label: String
    let text: String
    /// What a reader sees: the text with each control character a space.
    let read: String

    init(_ label: String, _ text: String, read: String? = nil) {
        self.label = label
        self.text = text
        self.read = read ?? text
    }

    var testDescription: String { label }
}
