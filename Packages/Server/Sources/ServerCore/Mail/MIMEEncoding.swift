import Foundation

/// The encodings that keep a message 7-bit clean: text from outside made
/// safe for a header, RFC 2047 encoded-words, quoted-printable and base64
/// lines, RFC 2231 percent-encoding.
enum MIMEEncoding {
    /// The longest an encoded-word may be (RFC 2047 §2).
    static let encodedWordLimit = 75
    /// The longest a quoted-printable or base64 line may be (RFC 2045 §6.7, §6.8).
    static let bodyLineLimit = 76

    /// `text` with every control character (C0, DEL, C1, U+2028, U+2029) a
    /// space, so that nothing from outside can end a header line or start
    /// another; done before any other step.
    static func withoutControls(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(isControl(scalar) ? " " : scalar)
        }
        return String(scalars)
    }

    /// Whether `scalar` is a control character (or a line or paragraph separator).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }

    /// Whether every scalar of `text` is printable ASCII or a space.
    static func isPrintableASCII(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }

    // MARK: - RFC 2047 encoded-words

    /// `text` as `=?UTF-8?B?...?=` words: the first at most `firstLength`
    /// characters long (what is left of its header line), the others at
    /// most 75. A word holds whole characters (grapheme clusters); only a
    /// character too long for one word is cut, between its scalars, so no
    /// word ever holds part of a UTF-8 sequence.
    static func encodedWords(_ text: String, firstLength: Int) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        var capacity = max(payloadCapacity(firstLength), 4)
        func append(_ bytes: [UInt8]) {
            if chunk.count + bytes.count > capacity, !chunk.isEmpty {
                words.append(encodedWord(chunk))
                chunk = []
                capacity = payloadCapacity(encodedWordLimit)
            }
            chunk += bytes
        }
        for bytes in characterBytes(text, limit: payloadCapacity(encodedWordLimit)) { append(bytes) }
        if !chunk.isEmpty || words.isEmpty { words.append(encodedWord(chunk)) }
        return words
    }

    /// How many bytes fit in an encoded-word of `length` characters: its
    /// 12 characters of frame, then 4 base64 characters for every 3 bytes.
    private static func payloadCapacity(_ length: Int) -> Int {
        max(length - "=?UTF-8?B??=".count, 0) / 4 * 3
    }

    /// One encoded-word holding `bytes`.
    private static func encodedWord(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?" + Data(bytes).base64EncodedString() + "?="
    }

    // MARK: - Bodies

    /// `bytes` in base64, as lines of 76 characters.
    static func base64Lines(_ bytes: [UInt8]) -> [String] {
        let encoded = Data(bytes).base64EncodedString()
        var lines: [String] = []
        var start = encoded.startIndex
        while start < encoded.endIndex {
            let end = encoded.index(start, offsetBy: bodyLineLimit, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(String(encoded[start..<end]))
            start = end
        }
        return lines
    }

    /// `text` in quoted-printable, as lines of at most 76 characters: its
    /// line breaks (CRLF, a lone LF or a lone CR) become the hard breaks
    /// between lines; a longer line is cut by soft breaks (a final `=`).
    /// `=` and every byte that is not printable ASCII are escaped, and so
    /// are a space at the end of a line (which transports strip), a `.` at
    /// the start of one (which SMTP would double) and the `F` of a line
    /// starting `From ` (which mailbox files would quote).
    static func quotedPrintableLines(_ text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for character in text {
            if character == "\r\n" || character == "\n" || character == "\r" {
                lines += quotedPrintable(line: line)
                line = ""
            } else {
                line.append(character)
            }
        }
        return lines + quotedPrintable(line: line)
    }

    /// One line of text (without its break) as quoted-printable lines.
    private static func quotedPrintable(line: String) -> [String] {
        let scalars = Array(line.unicodeScalars)
        var lines: [String] = []
        var current = ""
        for index in scalars.indices {
            let isLast = index == scalars.count - 1
            var token = quotedPrintableToken(scalars, at: index, startsLine: current.isEmpty)
            // A line cut here ends with "=", so it holds one character fewer than the last line.
            if current.count + token.count > (isLast ? bodyLineLimit : bodyLineLimit - 1) {
                lines.append(current + "=")
                current = ""
                token = quotedPrintableToken(scalars, at: index, startsLine: true)
            }
            current += token
        }
        lines.append(current)
        return lines
    }

    /// The scalar at `index` as quoted-printable: itself, or its UTF-8 bytes as `=XX` escapes.
    private static func quotedPrintableToken(_ scalars: [Unicode.Scalar], at index: Int, startsLine: Bool) -> String {
        let scalar = scalars[index]
        let isLast = index == scalars.count - 1
        let literal: Bool
        switch scalar {
        case "=": literal = false
        case " ": literal = !isLast
        case ".": literal = !startsLine
        case "F": literal = !(startsLine && scalars[index...].starts(with: "From ".unicodeScalars))
        default: literal = (0x21...0x7E).contains(scalar.value)
        }
        if literal { return String(scalar) }
        return String(scalar).utf8.map { "=" + hexDigits($0) }.joined()
    }

    // MARK: - RFC 2231 parameter values

    /// `text`'s UTF-8 bytes percent-encoded as an RFC 2231 extended value
    /// (without its `UTF-8''` prefix), cut into pieces of at most `length`
    /// characters, each holding whole characters.
    static func percentEncodedPieces(_ text: String, length: Int) -> [String] {
        var pieces: [String] = []
        var piece = ""
        for bytes in characterBytes(text, limit: length / 3) {
            let encoded = bytes.map { byte in
                isAttributeCharacter(byte) ? String(UnicodeScalar(byte)) : "%" + hexDigits(byte)
            }.joined()
            if piece.count + encoded.count > length, !piece.isEmpty {
                pieces.append(piece)
                piece = ""
            }
            piece += encoded
        }
        if !piece.isEmpty || pieces.isEmpty { pieces.append(piece) }
        return pieces
    }

    /// The UTF-8 bytes of `text` a character at a time, and a character of
    /// more than `limit` bytes (a long cluster of combining marks) a scalar
    /// at a time, so that a piece of a given size can always be made.
    private static func characterBytes(_ text: String, limit: Int) -> [[UInt8]] {
        var units: [[UInt8]] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if bytes.count <= limit {
                units.append(bytes)
            } else {
                units += character.unicodeScalars.map { Array(String($0).utf8) }
            }
        }
        return units
    }

    /// Whether `byte` stands for itself in an RFC 2231 extended value (`attribute-char`).
    private static func isAttributeCharacter(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || "!#$&+-.^_`|~".utf8.contains(byte)
    }

    /// Whether `byte` is an ASCII letter or digit.
    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: false
        }
    }

    /// Two upper-case hexadecimal digits.
    private static func hexDigits(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
    }
}
