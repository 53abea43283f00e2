import Foundation
import Models
@testable import ServerCore
@testable import ServerStore
import Testing
import TestSupport

/// What the webhook suites share: servers that retry quickly, hooks added
/// with the operator's command, and the checks a receiver makes.
enum Webhooks {
    /// Attempts time out after 1 s and are retried after 50 ms, doubling to at most 1 s.
    static let quickRetries = quickRetries(attempts: 10)

    /// `quickRetries` with another number of attempts before a delivery fails.
    static func quickRetries(attempts: Int) -> [String] {
        [
            "--webhook-timeout", "1", "--webhook-lease", "3", "--webhook-first-retry-ms", "50",
            "--webhook-longest-retry", "1", "--webhook-attempts", String(attempts),
        ]
    }

    /// A secret file (mode 0600) in `directory`, and the secret as receivers hold it.
    static func secretFile(in directory: TemporaryDirectory) throws -> (path: String, secret: String) {
        let secret = "s3cret-" + UUID().uuidString.lowercased()
        let path = directory.path("webhook-secret")
        try Data((secret + "\n").utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        return (path, secret)
    }

    /// `jqc-server admin webhook ARGUMENTS --db DB --json`: its outcome.
    static func admin(_ server: ServerProcess, _ arguments: [String]) throws -> ProcessOutcome {
        try Programs.run("jqc-server", ["admin", "webhook"] + arguments + ["--db", server.databasePath, "--json"])
    }

    /// The JSON an admin command printed, which must have succeeded.
    static func json(_ outcome: ProcessOutcome) throws -> JSONValue {
        try #require(outcome.status == 0, "admin webhook: \(outcome.status) \(outcome.stderr)")
        return try JSONDecoder().decode(JSONValue.self, from: Data(outcome.stdout.utf8))
    }

    /// Adds a hook posting `events` (by default those of contract 1.1) to `url` (loopback allowed); its id.
    static func add(
        _ server: ServerProcess, url: String, secretFile: String,
        events: String? = "report.accepted,report.reviewed,issue.flagged"
    ) throws -> String {
        let added = try json(
            admin(
                server,
                ["add", url, "--secret-file", secretFile, "--allow-private-targets"]
                    + (events.map { ["--events", $0] } ?? [])))
        return try #require(added["webhook"]?["id"]?.stringValue)
    }

    /// Every delivery, newest first.
    static func deliveries(_ server: ServerProcess, failed: Bool = false) throws -> [JSONValue] {
        try json(admin(server, ["deliveries"] + (failed ? ["--failed"] : [])))["deliveries"]?.arrayValue ?? []
    }

    /// Whether a request carries a valid, recent `X-JQC-Signature` of its exact body under `secret`.
    static func signed(_ request: WebhookReceiver.Request, secret: String) -> Bool {
        guard let header = request.headers["x-jqc-signature"] else { return false }
        var parts: [String: String] = [:]
        for item in header.split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[String(pair[0])] = String(pair[1]) }
        }
        guard let stamp = parts["t"], let time = Int64(stamp), abs(Date().timeIntervalSince1970 - Double(time)) < 300,
            let given = parts["v1"]
        else { return false }
        let mac = Digest.hmacSHA256(key: Array(secret.utf8), message: Array("\(stamp).".utf8) + Array(request.body))
        return Hex.encode(mac) == given
    }

    /// The event a request posted.
    static func event(_ request: WebhookReceiver.Request) -> JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: request.body)) ?? .null
    }

    /// The report an event is about.
    static func report(of event: JSONValue) -> String? {
        event["report"]?["server_id"]?.stringValue ?? event["issue"]?["report_server_id"]?.stringValue
    }

    /// The events acknowledged first, once each, in the order they were acknowledged.
    static func firstAcknowledged(_ receiver: WebhookReceiver) -> [JSONValue] {
        var seen = Set<String>()
        return receiver.acknowledged.map(event).filter { event in
            guard let id = event["id"]?.stringValue else { return false }
            return seen.insert(id).inserted
        }
    }

    /// A short description of an event for comparing orders: `type` and the revision or issue it names.
    static func label(_ event: JSONValue) -> String {
        let type = event["type"]?.stringValue ?? "?"
        if let issue = event["issue"]?["description"]?.stringValue { return "\(type) \(issue)" }
        if let state = event["review"]?["state"]?.stringValue { return "\(type) \(state)" }
        return "\(type) r\(event["report"]?["revision"]?.integerValue ?? 0)"
    }

    /// A lobby report with issues described by `issues`, each with a local id made from its description.
    static func lobby(
        localID: UUID, serverID: String? = nil, baseRevision: Int? = nil, notes: String = "fine",
        issues: [String] = []
    ) -> JSONValue {
        Reports.lobby(
            localID: localID, serverID: serverID, baseRevision: baseRevision, answers: ["notes": .string(notes)]
        )
        .setting(
            "issues",
            .array(
                issues.map { description in
                    [
                        "local_id": .string(issueID(description)), "description": .string(description),
                        "severity": "high",
                        "photo_local_ids": [],
                    ]
                }))
    }

    /// The same issue id for the same description, so an amendment can carry it again.
    static func issueID(_ description: String) -> String {
        let hex = Array(Digest.sha256Hex(Data(description.utf8)).prefix(32))
        return
            "\(String(hex[0..<8]))-\(String(hex[8..<12]))-4\(String(hex[13..<16]))-8\(String(hex[17..<20]))-\(String(hex[20..<32]))"
    }
}
