/// One sender thread's connection to the relay: not Sendable; reuses its
/// libcurl easy handle, so consecutive sends reuse one SMTP connection
/// (libcurl's connection cache) instead of reconnecting each time.
///
/// `send` blocks the calling thread until the relay has answered the message
/// or the relay's total timeout has passed, so it never runs on the Swift
/// cooperative pool: the thread that made the sender uses it and frees it.
/// After any send that was not accepted, its connection is dropped and the
/// next send opens a new one: the old one may be in the middle of a
/// transaction, or held by a relay that stopped answering.
public final class SMTPSender {
    /// The relay every message goes to.
    public let relay: SMTPRelay
    private let handle: MailHandle

    /// A sender for `relay`; nothing is connected until the first `send`.
    public init(relay: SMTPRelay) throws(NetworkingError) {
        self.relay = relay
        handle = try MailHandle(relay: relay)
    }

    /// Sends `message` (RFC 5322 bytes with CRLF line ends) from `from` to
    /// `recipients`. libcurl doubles a line's leading dot on the wire and
    /// the relay removes it again, so the relay keeps the bytes as given.
    /// Every recipient must be accepted: one refused recipient refuses the message.
    public func send(from: String, to recipients: [String], message: [UInt8]) -> SMTPOutcome {
        if let problem = Self.problem(from: from, to: recipients) {
            return .refused(SMTPReply(code: nil, text: problem))
        }
        var transfer = handle.send(from: from, to: recipients, message: message, freshConnection: false)
        // A kept connection the relay had closed, found out before it said a word: nothing
        // was taken, so the message goes once more on a new connection.
        if transfer.end != .completed && transfer.reply == nil && transfer.reusedConnection {
            handle.abandonConnection()
            transfer = handle.send(from: from, to: recipients, message: message, freshConnection: true)
        }
        let outcome = SMTPOutcome(
            end: transfer.end, reply: transfer.reply, detail: transfer.detail, host: relay.host)
        if !outcome.isAccepted { handle.abandonConnection() }
        return outcome
    }

    /// Why the envelope cannot be sent at all, or nil: an address that would break the SMTP command it goes into.
    private static func problem(from: String, to recipients: [String]) -> String? {
        if recipients.isEmpty { return "Not sent: the message has no recipient." }
        for address in [from] + recipients where !isSafe(address) {
            return "Not sent: the address '\(address.debugDescription.dropFirst().dropLast())' holds a line break, "
                + "control character or angle bracket."
        }
        for address in recipients where address.isEmpty {
            return "Not sent: a recipient's address is empty."
        }
        return nil
    }

    private static func isSafe(_ address: String) -> Bool {
        !address.unicodeScalars.contains { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F || scalar == "<" || scalar == ">"
        }
    }
}

@available(*, unavailable, message: "one thread owns a sender and its connection")
extension SMTPSender: Sendable {}
