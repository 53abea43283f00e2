import Foundation
import Networking
import Testing
import TestSupport

/// The mail sender against a real SMTP receiver on loopback: what arrives,
/// on how many connections, and what each refusal or failure becomes.
@Suite("SMTP sender against a real receiver")
struct SMTPSenderTests {
    /// An alert as the server would write it: CRLF line ends, a line that starts
    /// with a dot, a line that is only a dot, and a line of 998 characters.
    static let alert: [UInt8] = Array(
        ([
            "From: JanitorialQC <alerts@jqc.example>",
            "To: Ines <ines@site.example>, ops@site.example",
            "Subject: =?utf-8?q?Issue_raised_at_Caf=C3=A9_Depot?=",
            "Message-ID: <alert-1@jqc.example>",
            "Date: Mon, 02 Mar 2026 09:00:00 +0000",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
            "",
            "A photo was attached to issue 42.",
            ".hidden line that starts with a dot",
            ".",
            "..two dots",
            String(repeating: "x", count: 998),
            "Caf\u{E9} Depot, floor 2",
            "",
        ].joined(separator: "\r\n")).utf8)

    static func relay(_ url: String, timeout: TimeInterval = 5, user: String? = nil, password: String? = nil)
        throws -> SMTPRelay
    {
        try SMTPRelay(url: url, user: user, password: password, connectTimeout: 2, totalTimeout: timeout)
    }

    /// Sends each message in turn through one sender, on a thread of its own (a send blocks).
    static func send(_ relay: SMTPRelay, count: Int = 1, message: [UInt8] = alert) async throws -> [SMTPOutcome] {
        try await OwnThread.run {
            let sender = try SMTPSender(relay: relay)
            return (0..<count).map { _ in
                sender.send(
                    from: "alerts@jqc.example", to: ["ines@site.example", "ops@site.example"], message: message)
            }
        }
    }

    @Test("a message arrives byte for byte, with its envelope, and the relay's answer is kept")
    func byteExact() async throws {
        let receiver = try await SMTPReceiver.start()
        let outcomes = try await Self.send(Self.relay(receiver.url))
        guard case .accepted(let reply) = try #require(outcomes.first) else {
            Issue.record("not accepted: \(outcomes)")
            return
        }
        #expect(reply == SMTPReply(code: 250, text: "250 2.0.0 OK: queued as 000001"))
        let message = try #require(try receiver.waitForMessages(count: 1).first)
        #expect(message.raw == Data(Self.alert))
        #expect(message.mailFrom == "alerts@jqc.example")
        #expect(message.rcptTos == ["ines@site.example", "ops@site.example"])
        #expect(message.parseError == nil)
        #expect(message.subject == "Issue raised at Caf\u{E9} Depot")
        #expect(message.parts.first?.text?.contains("\r\n.\r\n..two dots\r\n") == true)
    }

    @Test("consecutive sends of one sender go over one connection")
    func reuse() async throws {
        let receiver = try await SMTPReceiver.start()
        let outcomes = try await Self.send(Self.relay(receiver.url), count: 3)
        #expect(outcomes.map(\.isAccepted) == [true, true, true])
        let messages = try receiver.waitForMessages(count: 3)
        #expect(messages.map(\.connection) == [1, 1, 1])
        #expect(try receiver.stats.connections == 1)
    }

    @Test("550 at RCPT is refused with the relay's words, and nothing is delivered")
    func recipientRefused() async throws {
        let receiver = try await SMTPReceiver.start(.init(faults: .init(rcptCode: 550)))
        let outcome = try #require(try await Self.send(Self.relay(receiver.url)).first)
        guard case .refused(let reply) = outcome else {
            Issue.record("not refused: \(outcome)")
            return
        }
        #expect(reply.code == 550)
        #expect(reply.text.hasPrefix("550 5.1.1 <ines@site.example>: mailbox unavailable"))
        #expect(try receiver.messages().isEmpty)
    }

    @Test("a multi-line 550 after the message's end is refused, its lines joined")
    func dataRefused() async throws {
        let receiver = try await SMTPReceiver.start(.init(faults: .init(dataCode: 550)))
        let outcome = try #require(try await Self.send(Self.relay(receiver.url)).first)
        #expect(
            outcome
                == .refused(
                    SMTPReply(code: 550, text: "550-5.7.1 message refused 550 5.7.1 by the receiver's fault mode")))
        #expect(try receiver.messages().isEmpty)
    }

    @Test("451 at RCPT is deferred, naming the relay and its reply")
    func recipientDeferred() async throws {
        let receiver = try await SMTPReceiver.start(.init(faults: .init(rcptCode: 451)))
        let outcome = try #require(try await Self.send(Self.relay(receiver.url)).first)
        guard case .deferred(let reply, let line) = outcome else {
            Issue.record("not deferred: \(outcome)")
            return
        }
        #expect(reply?.code == 451)
        #expect(line == "The mail relay 127.0.0.1:\(receiver.port) asked to try again later: \(reply?.text ?? "")")
        #expect(line.contains("451 4.2.1"))
    }

    @Test("a 421 greeting is deferred; the next send on the same sender is delivered")
    func greetingRefused() async throws {
        let receiver = try await SMTPReceiver.start(.init(faults: .init(greetingCode: 421, failFirst: 1)))
        let outcomes = try await Self.send(Self.relay(receiver.url), count: 2)
        guard case .deferred(let reply, _) = outcomes[0] else {
            Issue.record("not deferred: \(outcomes)")
            return
        }
        #expect(reply?.code == 421)
        #expect(outcomes[1].isAccepted)
        #expect(try receiver.waitForMessages(count: 1).count == 1)
    }

    @Test("a connection dropped mid-message is deferred; the next send on the same sender is delivered")
    func droppedDuringData() async throws {
        let receiver = try await SMTPReceiver.start(.init(faults: .init(dropDuringData: true, failFirst: 1)))
        let outcomes = try await Self.send(Self.relay(receiver.url), count: 2)
        guard case .deferred(_, let line) = outcomes[0] else {
            Issue.record("not deferred: \(outcomes)")
            return
        }
        #expect(line.contains("broke before it accepted the message"))
        #expect(outcomes[1].isAccepted)
        let messages = try receiver.waitForMessages(count: 1)
        #expect(messages.map(\.raw) == [Data(Self.alert)])
        let stats = try receiver.stats
        #expect(stats.dropped == 1 && stats.connections == 2)
    }

    @Test("a relay that does not answer the message's end in time is deferred as timed out, and may have kept it")
    func stalled() async throws {
        let receiver = try await SMTPReceiver.start(.init(faults: .init(stall: 5, failFirst: 1)))
        let outcomes = try await Self.send(Self.relay(receiver.url, timeout: 1), count: 2)
        guard case .deferred(_, let line) = outcomes[0] else {
            Issue.record("not deferred: \(outcomes)")
            return
        }
        #expect(line.contains("did not answer in time (timed out)"))
        #expect(outcomes[1].isAccepted)
        // The stalled relay had queued the first copy before it went quiet: sent again, the message arrives twice.
        #expect(try receiver.waitForMessages(count: 2).count == 2)
    }

    @Test("faults switched on and off while the receiver runs apply to the next transaction")
    func faultsSwitched() async throws {
        let receiver = try await SMTPReceiver.start()
        let relay = try Self.relay(receiver.url)
        #expect(try await Self.send(relay).first?.isAccepted == true)
        try receiver.setFaults(.init(rcptCode: 550))
        #expect(try await Self.send(relay).first?.replyCode == 550)
        try receiver.setFaults(.init())
        #expect(try await Self.send(relay).first?.isAccepted == true)
        #expect(try receiver.stats.refused == 1)
    }

    @Test("a login is sent when the relay asks; a wrong password is refused and never shown")
    func authentication() async throws {
        let password = "s3cret-Pa55"
        let receiver = try await SMTPReceiver.start(.init(auth: (user: "alerts", password: password)))
        let good = try Self.relay(receiver.url, user: "alerts", password: password)
        #expect(try await Self.send(good).first?.isAccepted == true)

        let bad = try Self.relay(receiver.url, user: "alerts", password: "wrong-\(password)")
        let outcome = try #require(try await Self.send(bad).first)
        guard case .refused(let reply) = outcome else {
            Issue.record("not refused: \(outcome)")
            return
        }
        #expect(reply.code == 535)
        var dumped = ""
        dump(bad, to: &dumped)
        for text in ["\(outcome)", String(reflecting: outcome), "\(bad)", String(reflecting: bad), dumped] {
            #expect(!text.contains(password), "\(text)")
        }
        #expect(try receiver.stats.authFailures == 1)
        #expect(try receiver.messages().count == 1)
    }

    @Test("smtp:// to a name off this machine requires STARTTLS: without it nothing is sent")
    func startTLSRequired() async throws {
        let receiver = try await SMTPReceiver.start()
        let relay = try SMTPRelay(
            url: "smtp://relay.invalid:\(receiver.port)", connectTimeout: 2, totalTimeout: 5,
            pinnedAddresses: ["relay.invalid:\(receiver.port):127.0.0.1"])
        #expect(relay.requiresTLS)
        let outcome = try #require(try await Self.send(relay).first)
        guard case .deferred(_, let line) = outcome else {
            Issue.record("not deferred: \(outcome)")
            return
        }
        #expect(line.contains("relay.invalid:\(receiver.port) does not offer STARTTLS"))
        #expect(line.contains("TLS is required"))
        #expect(try receiver.stats.transactions == 0)
        #expect(try receiver.messages().isEmpty)
    }

    @Test("STARTTLS with a verified certificate delivers; an unknown CA is deferred as a TLS failure")
    func startTLS() async throws {
        let folder = TemporaryDirectory(prefix: "jqc-smtp-tls")
        let certificate = folder.path("relay.pem"), key = folder.path("relay.key")
        let made = try Subprocess.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=relay.invalid", "-addext", "subjectAltName=DNS:relay.invalid", "-keyout", key, "-out",
                certificate,
            ])
        try #require(made.status == 0, "openssl: \(made.stderr)")
        let receiver = try await SMTPReceiver.start(.init(tls: (certificate: certificate, key: key)))
        let pinned = ["relay.invalid:\(receiver.port):127.0.0.1"]
        let trusted = try SMTPRelay(
            url: "smtp://relay.invalid:\(receiver.port)", caCertificatePath: certificate, connectTimeout: 2,
            totalTimeout: 5, pinnedAddresses: pinned)
        #expect(try await Self.send(trusted).first?.isAccepted == true)
        #expect(try receiver.waitForMessages(count: 1).first?.raw == Data(Self.alert))

        let untrusted = try SMTPRelay(
            url: "smtp://relay.invalid:\(receiver.port)", connectTimeout: 2, totalTimeout: 5, pinnedAddresses: pinned)
        let outcome = try #require(try await Self.send(untrusted).first)
        guard case .deferred(_, let line) = outcome else {
            Issue.record("not deferred: \(outcome)")
            return
        }
        #expect(line.hasPrefix("The secure connection to the mail relay relay.invalid:\(receiver.port) failed"))
        #expect(try receiver.messages().count == 1)
    }

    @Test("a relay that is not listening is deferred as unreachable")
    func unreachable() async throws {
        var receiver: SMTPReceiver? = try await SMTPReceiver.start()
        let port = try #require(receiver?.port)
        receiver = nil
        let outcome = try #require(try await Self.send(Self.relay("smtp://127.0.0.1:\(port)")).first)
        guard case .deferred(nil, let line) = outcome else {
            Issue.record("not deferred without a reply: \(outcome)")
            return
        }
        #expect(line.hasPrefix("Could not reach the mail relay 127.0.0.1:\(port)"))
    }

    @Test("an address that would break its SMTP command is refused before any connection")
    func unsafeAddress() async throws {
        let receiver = try await SMTPReceiver.start()
        let relay = try Self.relay(receiver.url)
        let outcomes = try await OwnThread.run {
            let sender = try SMTPSender(relay: relay)
            return [
                sender.send(
                    from: "a@jqc.example", to: ["x@site.example>\r\nRCPT TO:<y@evil.example"], message: Self.alert),
                sender.send(from: "a@jqc.example", to: [], message: Self.alert),
            ]
        }
        #expect(outcomes.map(\.replyCode) == [nil, nil])
        #expect(outcomes.allSatisfy { if case .refused = $0 { true } else { false } })
        #expect(try receiver.stats.connections == 0)
    }

    @Test("relay URLs: smtp or smtps to a host, plain text only to this machine")
    func relayValidation() throws {
        #expect(try !SMTPRelay(url: "smtp://127.0.0.2:2525").requiresTLS)
        #expect(try !SMTPRelay(url: "smtp://localhost/").requiresTLS)
        #expect(try !SMTPRelay(url: "smtp://[::1]:25").requiresTLS)
        #expect(try SMTPRelay(url: "smtp://[::1]:25").url == "smtp://[::1]:25")
        #expect(try SMTPRelay(url: "smtp://10.0.0.1").requiresTLS)
        #expect(try SMTPRelay(url: "SMTPS://mail.example.com:465/").url == "smtps://mail.example.com:465")
        #expect(try SMTPRelay(url: "smtps://127.0.0.1").requiresTLS)

        let refused: [(String, [String], String)] = [
            ("http://x", [], "'http://x' is not an smtp:// or smtps:// URL"),
            ("smtp://", [], "'smtp://' names no host"),
            ("smtp:///", [], "names no host"),
            ("smtp://mail.example.com/ehlo.example", [], "has a path"),
            ("smtp://mail.example.com?x=1", [], "has a query or fragment"),
            ("smtp://alerts:hunter2@mail.example.com", [], "holds a user or password"),
            ("smtp://localhost:25", ["localhost:25:10.1.2.3"], "sends plain smtp:// off this machine"),
            ("smtp://mail.example.com", ["mail.example.com:25"], "is not host:port:address"),
        ]
        for (url, pinned, expected) in refused {
            let error = #expect(throws: NetworkingError.self, "\(url)") {
                try SMTPRelay(url: url, pinnedAddresses: pinned)
            }
            #expect(error?.code == .refusedTarget)
            #expect(error?.message.contains(expected) == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("hunter2") == false)
        }
        let several = #expect(throws: NetworkingError.self) {
            try SMTPRelay(url: "ftp://x", password: "pw", connectTimeout: 0)
        }
        #expect(
            several?.message
                == "The mail relay settings are not usable: 'ftp://x' is not an smtp:// or smtps:// URL; "
                + "a password is given without a user; the connect timeout 0.0 is not a positive number of seconds.")
    }
}

extension SMTPOutcome {
    fileprivate var replyCode: Int? {
        switch self {
        case .accepted(let reply), .refused(let reply): reply.code
        case .deferred(let reply, _): reply?.code
        }
    }
}
