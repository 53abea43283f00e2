import Foundation

/// The server's last reply: its code (nil when none arrived) and its text
/// (the reply lines, joined by " ", trimmed, at most 500 characters).
public struct SMTPReply: Sendable, Equatable {
    /// The three-digit reply code (`250`, `451`, `550`), or nil when none arrived.
    public var code: Int?
    /// The reply's lines as the server wrote them, codes included: `550 5.1.1 mailbox unavailable`.
    public var text: String

    /// A reply with `code` and `text`, as given.
    public init(code: Int?, text: String) {
        self.code = code
        self.text = text
    }

    /// The longest `text` kept: a reply is for a log line, not a transcript.
    static let maximumText = 500

    /// A reply from its `lines`: the code from the first, the lines joined by a space, trimmed and cut to length.
    init(lines: [String]) {
        let joined = lines.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        text = String(joined.prefix(Self.maximumText))
        let digits = joined.prefix(3)
        code = digits.count == 3 && digits.allSatisfy(\.isASCIIDigit) ? Int(digits) : nil
    }
}

/// What became of one message handed to an `SMTPSender`.
public enum SMTPOutcome: Sendable, Equatable {
    /// The relay took the message: a 2xx after the end of DATA.
    case accepted(SMTPReply)
    /// A 5xx at any step: permanent, do not retry. A message the sender would not
    /// send (an address with a line break, no recipient) is refused too, with no code.
    case refused(SMTPReply)
    /// A 4xx, a timeout, a refused or dropped connection, a TLS failure: retry later.
    /// The reply is the relay's last one in this attempt, if any; the string is one line for a person,
    /// naming the relay's host and never the password.
    case deferred(SMTPReply?, String)

    /// Whether the relay took the message.
    public var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }
}

/// How a transfer ended, as libcurl's code says, in the words the outcome needs.
enum MailTransferEnd: Equatable {
    case completed
    case unreachable
    case timedOut
    /// `smtp://` to another machine, and the relay does not offer STARTTLS.
    case startTLSMissing
    case tls
    case connectionLost
    case other
}

extension SMTPOutcome {
    /// The outcome of a transfer that ended as `end`, with the relay's last `reply`
    /// and libcurl's one-line `detail`, for messages naming `host`.
    init(end: MailTransferEnd, reply: SMTPReply?, detail: String, host: String) {
        let code = reply?.code ?? 0
        if end == .completed && (200..<300).contains(code), let reply {
            self = .accepted(reply)
            return
        }
        if let reply, (500..<600).contains(code) {
            self = .refused(reply)
            return
        }
        if let reply, (400..<500).contains(code) {
            self = .deferred(reply, "The mail relay \(host) asked to try again later: \(reply.text)")
            return
        }
        let line: String
        switch end {
        case .completed:
            line = "The mail relay \(host) ended without accepting the message: \(reply?.text ?? "no reply")."
        case .unreachable:
            line = "Could not reach the mail relay \(host): \(detail)."
        case .timedOut:
            line = "The mail relay \(host) did not answer in time (timed out): \(detail)."
        case .startTLSMissing:
            line =
                "The mail relay \(host) does not offer STARTTLS, and TLS is required for a relay on another "
                + "machine; nothing was sent. Use smtps://, or a relay that offers STARTTLS."
        case .tls:
            line =
                "The secure connection to the mail relay \(host) failed: \(detail). "
                + "Check the relay's certificate, or name its CA."
        case .connectionLost:
            line = "The connection to the mail relay \(host) broke before it accepted the message: \(detail)."
        case .other:
            line = "Sending to the mail relay \(host) failed: \(detail)."
        }
        self = .deferred(reply, line)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
