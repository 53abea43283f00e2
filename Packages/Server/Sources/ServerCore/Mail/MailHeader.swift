import Foundation

/// One header field of a message as the lines it is written in: folded
/// (RFC 5322 §2.2.3) before whitespace so that no line is over 78
/// characters where the value allows it, and none ever over 998.
///
/// A value is a list of segments: the first is written after `name: `, each
/// other one starts with the whitespace that a fold may go before. Folding
/// only inserts CRLF before that whitespace, so unfolding gives back the
/// value exactly, and no line ends with whitespace.
struct MailHeader {
    /// The longest line a header is folded to.
    static let lineLimit = 78
    /// The longest line SMTP carries (RFC 5322 §2.1.1).
    static let hardLineLimit = 998

    /// The lines, without their CRLF.
    let lines: [String]

    /// `segments` folded after `name:`: each goes on the current line if it
    /// fits in 78 characters there, else starts the next line.
    init(_ name: String, segments: [String]) {
        var lines: [String] = []
        var line = name + ":"
        for (index, segment) in segments.enumerated() {
            let piece = index == 0 ? " " + segment : segment
            if line.utf8.count + piece.utf8.count > Self.lineLimit {
                lines.append(line)
                line = piece
            } else {
                line += piece
            }
        }
        lines.append(line)
        self.lines = lines
    }

    /// Whether every line is at most `limit` octets.
    func fits(_ limit: Int = lineLimit) -> Bool {
        lines.allSatisfy { $0.utf8.count <= limit }
    }

    /// Unstructured text from outside (a subject): its controls made spaces;
    /// written as it is when it is ASCII that folds at its spaces into lines
    /// of 78, else as encoded-words (non-ASCII text, text that a reader
    /// would take for encoded-words, spaces at either end, which readers
    /// drop, or a word too long for a line).
    static func text(_ name: String, _ value: String) -> MailHeader {
        let text = MIMEEncoding.withoutControls(value)
        if text.isEmpty { return MailHeader(name, segments: []) }
        if isPlain(text), text.first != " ", text.last != " " {
            let plain = MailHeader(name, segments: spaceSegments(text))
            if plain.fits() { return plain }
        }
        return encoded(name, text)
    }

    /// A header the server adds (`Auto-Submitted`, `List-Unsubscribe`): its
    /// controls made spaces and the spaces at its ends dropped; ASCII is
    /// written as it is, folded at its spaces (a structured value such as a
    /// URL must stay readable, so a long word may make a line longer than
    /// 78), and only non-ASCII text or a line over 998 is encoded.
    static func fixed(_ name: String, _ value: String) -> MailHeader {
        let text = MIMEEncoding.withoutControls(value).trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return MailHeader(name, segments: []) }
        if MIMEEncoding.isPrintableASCII(text) {
            let plain = MailHeader(name, segments: spaceSegments(text))
            if plain.fits(hardLineLimit) { return plain }
        }
        return encoded(name, text)
    }

    /// A mailbox (`From`, `To`): the display name, if it has one, then the
    /// address in angle brackets.
    static func mailbox(_ name: String, _ address: MailAddress) -> MailHeader {
        let spec = MailAddress.written(address.address)
        let displayName = address.name.map(MIMEEncoding.withoutControls) ?? ""
        if displayName.isEmpty { return MailHeader(name, segments: [spec]) }
        let angle = " <" + spec + ">"
        // The address cannot be folded, so only the name decides whether it is written as it is.
        if isPlain(displayName) {
            let phrase = spaceSegments(isAtomPhrase(displayName) ? displayName : quotedString(displayName))
            if MailHeader(name, segments: phrase).fits() { return MailHeader(name, segments: phrase + [angle]) }
        }
        return MailHeader(name, segments: encodedSegments(name, displayName) + [angle])
    }

    /// `text` as encoded-words, the first sized to what is left of the first line.
    private static func encoded(_ name: String, _ text: String) -> MailHeader {
        MailHeader(name, segments: encodedSegments(name, text))
    }

    /// The encoded-words of `text` as segments; a name too long to leave
    /// room for a word beside it puts the first word on the next line.
    private static func encodedSegments(_ name: String, _ text: String) -> [String] {
        let room = min(lineLimit - name.utf8.count - 2, MIMEEncoding.encodedWordLimit)
        let words = MIMEEncoding.encodedWords(text, firstLength: room >= 20 ? room : MIMEEncoding.encodedWordLimit)
        return words.enumerated().map { $0.offset == 0 ? $0.element : " " + $0.element }
    }

    /// Whether ASCII `text` may be written as it is: printable, and nothing a reader would decode as an encoded-word.
    private static func isPlain(_ text: String) -> Bool {
        MIMEEncoding.isPrintableASCII(text) && !text.contains("=?")
    }

    /// `text` cut before each run of spaces: the first segment has none
    /// before it, each other starts with its run.
    static func spaceSegments(_ text: String) -> [String] {
        var segments: [String] = []
        var current = ""
        var inWord = false
        for character in text {
            if character == " ", inWord {
                segments.append(current)
                current = ""
                inWord = false
            }
            if character != " " { inWord = true }
            current.append(character)
        }
        if !current.isEmpty { segments.append(current) }
        return segments
    }

    /// Whether `name` is atoms separated by single spaces, which a phrase holds without quotes.
    private static func isAtomPhrase(_ name: String) -> Bool {
        name.split(separator: " ", omittingEmptySubsequences: false).allSatisfy { word in
            !word.isEmpty && word.utf8.allSatisfy(MailAddress.isAtomText)
        }
    }

    /// `text` as a quoted-string, its `\` and `"` escaped.
    private static func quotedString(_ text: String) -> String {
        var quoted = "\""
        for character in text {
            if character == "\\" || character == "\"" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}
