import FieldTypes
import Foundation
import ServerStore

/// An address: its display name (any text from outside, may be nil) and its addr-spec.
struct MailAddress: Sendable, Equatable {
    /// The name shown beside the address (`Harbour Cleaning`); nil or empty for none.
    var name: String?
    /// The addr-spec (`inspector.one@example.org`), checked by `validated` when a person typed it.
    var address: String

    /// An address with its display name.
    init(name: String?, address: String) {
        self.name = name
        self.address = address
    }

    /// The longest address SMTP carries (RFC 5321 §4.5.3.1.3, a path of 256 with its brackets).
    static let lengthLimit = 254
    /// The longest local part (RFC 5321 §4.5.3.1.1).
    static let localPartLimit = 64

    /// Checks an address a person typed: one `@` between a non-empty local
    /// part and a domain; printable ASCII with no space or control; a local
    /// part that is a plain dot-atom (RFC 5321: letters, digits and
    /// ``!#$%&'*+-/=?^_`{|}~`` between single dots, so none of
    /// `<>,;:"()[]\`); a domain of host-name labels; at most 254
    /// characters. Throws one line naming the value and every problem found.
    static func validated(_ text: String) throws(ServerError) -> String {
        let problems = problems(of: text)
        guard problems.isEmpty else {
            throw ServerError.badRequest(
                "the e-mail address \(OneLine.quote(text)) \(listed(problems)); "
                    + "type one address such as name@example.org")
        }
        return text
    }

    /// Every reason `text` is not an address this server sends to, each a phrase after "the address ...".
    static func problems(of text: String) -> [String] {
        if text.isEmpty { return ["is empty"] }
        var problems: [String] = []
        let scalars = text.unicodeScalars
        if text.utf8.count > lengthLimit {
            problems.append("is \(text.utf8.count) characters long, more than \(lengthLimit)")
        }
        if scalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
            problems.append("holds a line break")
        } else if scalars.contains(where: MIMEEncoding.isControl) {
            problems.append("holds a control character")
        }
        if scalars.contains(" ") { problems.append("holds a space") }
        if !scalars.allSatisfy(\.isASCII) { problems.append("holds characters other than plain ASCII") }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            problems.append(parts.count == 1 ? "has no '@'" : "has \(parts.count - 1) '@', not one")
            return problems
        }
        return problems + localPartProblems(parts[0]) + domainProblems(parts[1])
    }

    /// `problems` as one phrase: `a, b and c`.
    private static func listed(_ problems: [String]) -> String {
        guard let last = problems.last, problems.count > 1 else { return problems.first ?? "" }
        return problems.dropLast().joined(separator: ", ") + " and " + last
    }

    /// What is wrong with the part before the `@`.
    private static func localPartProblems(_ local: Substring) -> [String] {
        if local.isEmpty { return ["has nothing before the '@'"] }
        var problems: [String] = []
        let specials = Set(local.unicodeScalars.filter { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
            .filter { $0 != "." && !isAtomText(UInt8($0.value)) }
        if !specials.isEmpty {
            let marks = specials.sorted { $0.value < $1.value }.map { "'\($0)'" }.joined(separator: " ")
            problems.append("holds \(marks) before the '@'")
        }
        if local.hasPrefix(".") || local.hasSuffix(".") || local.contains("..") {
            problems.append("has a dot at an end of the part before the '@', or two together")
        }
        if local.utf8.count > localPartLimit {
            problems.append("has \(local.utf8.count) characters before the '@', more than \(localPartLimit)")
        }
        return problems
    }

    /// What is wrong with the domain: it must be host-name labels (letters, digits, inner hyphens) between dots.
    private static func domainProblems(_ domain: Substring) -> [String] {
        if domain.isEmpty { return ["has nothing after the '@'"] }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy(isHostLabel) else {
            return [
                "has a domain \(OneLine.quote(String(domain), limit: 40)) that is not a host name such as example.org"
            ]
        }
        return []
    }

    /// Whether `label` is one label of a host name: 1 to 63 letters, digits and hyphens, with no hyphen at either end.
    private static func isHostLabel(_ label: Substring) -> Bool {
        let bytes = Array(label.utf8)
        guard let first = bytes.first, let last = bytes.last, bytes.count <= 63 else { return false }
        return first != UInt8(ascii: "-") && last != UInt8(ascii: "-")
            && bytes.allSatisfy { $0 == UInt8(ascii: "-") || MIMEEncoding.isLetterOrDigit($0) }
    }

    /// Whether `byte` is an RFC 5322 `atext` character: a letter, a digit or one of ``!#$%&'*+-/=?^_`{|}~``.
    static func isAtomText(_ byte: UInt8) -> Bool {
        MIMEEncoding.isLetterOrDigit(byte) || "!#$%&'*+-/=?^_`{|}~".utf8.contains(byte)
    }

    /// `address` as the composer writes it: an address that was never
    /// checked loses every character that could end the header, leave 7-bit
    /// or close the angle brackets (controls, spaces, non-ASCII, `<`, `>`),
    /// and is cut at 254 characters, so it can spoil only itself.
    static func written(_ address: String) -> String {
        String(
            String.UnicodeScalarView(
                address.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F && $0 != "<" && $0 != ">" }
                    .prefix(lengthLimit)))
    }
}
