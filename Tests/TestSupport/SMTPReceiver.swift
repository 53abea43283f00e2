import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A real SMTP server on loopback (`Tools/mail-receiver/receiver.py`, on
/// aiosmtpd), as the relay a mail sender talks to: every accepted message
/// kept in a folder with its envelope and how Python's strict e-mail parser
/// reads it, connections counted, and faults scripted from the start or
/// switched while it runs. Its Python environment is made by `Tools/setup`.
public final class SMTPReceiver: @unchecked Sendable {
    /// Faults the receiver applies; all off by default.
    public struct Faults: Sendable, Equatable, Encodable {
        /// Answer a new connection with this code (421) and close it.
        public var greetingCode: Int?
        /// Refuse every recipient with this code (550, 451).
        public var rcptCode: Int?
        /// Refuse the message after its end with this code (550, 451).
        public var dataCode: Int?
        /// Close the connection after the message's first line, without a reply.
        public var dropDuringData = false
        /// Keep the message, then wait this many seconds before answering its end.
        public var stall: Double?
        /// Apply the faults to the first N attempts (connections or transactions) only, then accept.
        public var failFirst: Int?

        public init(
            greetingCode: Int? = nil, rcptCode: Int? = nil, dataCode: Int? = nil, dropDuringData: Bool = false,
            stall: Double? = nil, failFirst: Int? = nil
        ) {
            self.greetingCode = greetingCode
            self.rcptCode = rcptCode
            self.dataCode = dataCode
            self.dropDuringData = dropDuringData
            self.stall = stall
            self.failFirst = failFirst
        }

        /// The receiver's command-line flags for these faults.
        var arguments: [String] {
            var flags: [String] = []
            if let greetingCode { flags += ["--greeting-code", String(greetingCode)] }
            if let rcptCode { flags += ["--rcpt-code", String(rcptCode)] }
            if let dataCode { flags += ["--data-code", String(dataCode)] }
            if dropDuringData { flags.append("--drop-during-data") }
            if let stall { flags += ["--stall", String(stall)] }
            if let failFirst { flags += ["--fail-first", String(failFirst)] }
            return flags
        }

        enum CodingKeys: String, CodingKey {
            case greetingCode = "greeting_code", rcptCode = "rcpt_code", dataCode = "data_code"
            case dropDuringData = "drop_during_data", stall, failFirst = "fail_first"
        }
    }

    /// How the receiver is started.
    public struct Options: Sendable {
        /// The faults from the start (command-line flags).
        public var faults = Faults()
        /// A PEM certificate and key: the receiver offers STARTTLS with them.
        public var tls: (certificate: String, key: String)?
        /// Credentials the receiver requires with AUTH PLAIN or LOGIN (over plain text: it is loopback).
        public var auth: (user: String, password: String)?

        public init(
            faults: Faults = Faults(), tls: (certificate: String, key: String)? = nil,
            auth: (user: String, password: String)? = nil
        ) {
            self.faults = faults
            self.tls = tls
            self.auth = auth
        }
    }

    /// One accepted message: the exact bytes, the envelope, and what the strict parser read.
    public struct Message: Sendable, Decodable {
        /// `NNNNNN.eml`, in the order messages were accepted.
        public var file: String
        public var mailFrom: String
        public var rcptTos: [String]
        /// Which TCP connection it came on (from 1, in the order they were made).
        public var connection: Int
        /// The strict parser's complaint, nil when it read the message without one.
        public var parseError: String?
        /// Each header's name and decoded value, in order.
        public var headers: [[String]]
        public var messageId: String?
        public var subject: String?
        public var from: String?
        public var to: String?
        public var contentType: String
        public var parts: [Part]
        public var defects: [String]
        /// The bytes as received (dot-stuffing undone), from the `.eml` file.
        public var raw: Data = Data()

        /// One leaf of the MIME tree.
        public struct Part: Sendable, Decodable {
            public var contentType: String
            public var charset: String?
            public var filename: String?
            /// The decoded text of a `text/*` part.
            public var text: String?
            /// The size and SHA-256 of any other part's decoded bytes.
            public var size: Int?
            public var sha256: String?
        }

        enum CodingKeys: String, CodingKey {
            case file, mailFrom, rcptTos, connection, parseError, headers, messageId, subject, from, to, contentType
            case parts, defects
        }
    }

    /// What the receiver has counted.
    public struct Stats: Sendable, Decodable, Equatable {
        public var connections: Int
        /// Transactions begun (MAIL FROM).
        public var transactions: Int
        public var accepted: Int
        /// Transactions answered 5xx (at RCPT or after DATA).
        public var refused: Int
        /// Transactions answered 4xx.
        public var deferred: Int
        /// Connections closed mid-message (`dropDuringData`).
        public var dropped: Int
        public var greetingsRefused: Int
        public var authFailures: Int
    }

    /// The receiver could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The folder messages and `stats.json` are written to.
    public let folder: URL
    private let directory: TemporaryDirectory
    private let process: ChildProcess

    /// `smtp://127.0.0.1:PORT`.
    public var url: String { "smtp://127.0.0.1:\(port)" }

    /// Starts the receiver on a thread of its own (Python takes a moment to load) and waits until it listens.
    public static func start(_ options: Options = Options()) async throws -> SMTPReceiver {
        try await OwnThread.run { try SMTPReceiver(options) }
    }

    /// Starts the receiver and waits, blocking the calling thread, until it listens.
    public init(_ options: Options = Options()) throws {
        let root = RepositoryFiles.root
        let python = root.appendingPathComponent(".build/mail-venv/bin/python").path
        let pins = root.appendingPathComponent("Tools/mail-receiver/requirements.txt")
        let installed = root.appendingPathComponent(".build/mail-venv/requirements.txt")
        guard FileManager.default.isExecutableFile(atPath: python),
            (try? Data(contentsOf: pins)) == (try? Data(contentsOf: installed))
        else {
            throw Failure(
                description: "The test mail receiver's Python environment .build/mail-venv is missing or older "
                    + "than Tools/mail-receiver/requirements.txt; run Tools/setup (or Tools/mail-receiver/venv).")
        }
        directory = TemporaryDirectory(prefix: "jqc-smtp")
        folder = directory.url.appendingPathComponent("mail", isDirectory: true)
        var arguments = [
            root.appendingPathComponent("Tools/mail-receiver/receiver.py").path, "--folder", folder.path,
            "--control", directory.path("control.json"),
        ]
        arguments += options.faults.arguments
        if let tls = options.tls { arguments += ["--tls-cert", tls.certificate, "--tls-key", tls.key] }
        if let auth = options.auth { arguments += ["--auth", "\(auth.user):\(auth.password)"] }
        let log = directory.path("receiver.log")
        process = try ChildProcess(
            python, arguments, environment: ChildProcess.environment(adding: ["PYTHONDONTWRITEBYTECODE": "1"]),
            stdout: .pipe, stderr: .file(log))
        guard let port = Self.listeningPort(process.output, seconds: 20) else {
            process.signal(SIGKILL)
            process.wait()
            let errors = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure(description: "The test mail receiver did not start: \(errors)")
        }
        self.port = port
    }

    deinit {
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        process.signal(SIGKILL)
        process.wait()
    }

    /// Reads the receiver's standard output until it says `listening on 127.0.0.1:PORT`.
    private static func listeningPort(_ output: FileHandle?, seconds: Double) -> Int? {
        guard let output else { return nil }
        let deadline = Date().addingTimeInterval(seconds)
        var text = ""
        while Date() < deadline {
            var poller = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let chunk = output.readAvailable()
            if chunk.isEmpty { return nil }
            text += String(decoding: chunk, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on 127.0.0.1:") }) {
                return Int(line.dropFirst("listening on 127.0.0.1:".count))
            }
        }
        return nil
    }

    /// Every accepted message so far, in the order they were accepted.
    public func messages() throws -> [Message] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") && $0 != "stats.json" }.sorted()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try names.map { name in
            var message = try decoder.decode(Message.self, from: Data(contentsOf: folder.appendingPathComponent(name)))
            message.raw = try Data(contentsOf: folder.appendingPathComponent(message.file))
            return message
        }
    }

    /// Waits until at least `count` messages were accepted, or `timeout` seconds passed; the messages then.
    public func waitForMessages(count: Int, timeout: Double = 5) throws -> [Message] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found = try messages()
            if found.count >= count { return found }
            usleep(20_000)
        }
        return try messages()
    }

    /// Replaces the faults in force from the next connection or transaction on (`Faults()` turns them off).
    public func setFaults(_ faults: Faults) throws {
        let temporary = directory.path("control.json.tmp")
        try JSONEncoder().encode(faults).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, directory.path("control.json")) == 0 else {
            throw Failure(
                description: "Could not replace the receiver's control file: \(String(cString: strerror(errno)))")
        }
    }

    /// What the receiver has counted so far.
    public var stats: Stats {
        get throws {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try decoder.decode(Stats.self, from: Data(contentsOf: folder.appendingPathComponent("stats.json")))
        }
    }

    /// The receiver's standard error (aiosmtpd's warnings, a Python traceback).
    public var log: String {
        (try? String(contentsOfFile: directory.path("receiver.log"), encoding: .utf8)) ?? ""
    }
}
