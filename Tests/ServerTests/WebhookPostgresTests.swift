import Foundation
import Models
import Synchronization
import Testing
import TestSupport

/// Webhooks on a database that several instances share: each delivery is
/// taken by one instance at a time, and an instance that dies mid-delivery
/// leaves its deliveries to the others once their lease runs out. Always on
/// PostgreSQL (the run's cluster, or one started for it).
@Suite("Webhooks on PostgreSQL: two instances, one killed mid-delivery", .serialized, .timeLimit(.minutes(8)))
struct WebhookPostgresTests {
    @Test(
        "an instance SIGKILLed mid-delivery: every event is delivered, none lost, in order per report, repeats only with the same id and bytes"
    )
    func killedMidDelivery() async throws {
        let url = try ServerDatabases.freshPostgres()
        // Every request waits until the gate opens (after the kill), so the instance that dies is surely
        // mid-delivery when it does, however slow the machine.
        let gate = Mutex(false)
        let receiver = try WebhookReceiver { _ in
            for _ in 0..<2_000 where !gate.withLock({ $0 }) { usleep(10_000) }
            return .status(200)
        }
        let settings = [
            "--demo", "--webhook-timeout", "10", "--webhook-lease", "12", "--webhook-first-retry-ms", "50",
            "--webhook-longest-retry", "1", "--webhook-senders", "3",
        ]
        // The instance that will die runs alone until it holds deliveries, so
        // however loaded the machine, the other cannot take them all first.
        let doomed = try ServerProcess(settings, database: url)
        let (secretFile, secret) = try Webhooks.secretFile(in: doomed.directory)
        _ = try Webhooks.add(doomed, url: receiver.url, secretFile: secretFile)

        // The reports go to the instance that will die: its senders hear of them first.
        let inspector = try await Session.inspector(doomed)
        let locals = (0..<8).map { _ in UUID() }
        let first = try await inspector.sync(
            locals.enumerated().map { Webhooks.lobby(localID: $1, issues: ["stain \($0)"]) })
        let serverIDs = try #require(first.data["results"]?.arrayValue?.compactMap { $0["server_id"]?.stringValue })
        #expect(serverIDs.count == 8)
        let amended = try await inspector.sync(
            zip(locals, serverIDs).enumerated().map { index, pair in
                Webhooks.lobby(
                    localID: pair.0, serverID: pair.1, baseRevision: 1, notes: "again", issues: ["stain \(index)"])
            })
        #expect(amended.data["results"]?.arrayValue?.allSatisfy { $0["status"] == "ACCEPTED" } == true)

        // Killed while it holds deliveries: the receiver is holding its requests.
        var held: [String] = []
        for _ in 0..<300 where held.isEmpty {
            held = try ServerDatabases.query(
                url, "SELECT id FROM webhook_deliveries WHERE lease_owner LIKE '\(doomed.pid):%'"
            )
            .split(separator: "\n").map(String.init)
            if held.isEmpty { usleep(100_000) }
        }
        try #require(!held.isEmpty, "the first instance took deliveries")
        let survivor = try ServerProcess(settings, database: url)
        kill(doomed.pid, SIGKILL)
        _ = doomed.stop()
        gate.withLock { $0 = true }

        // 8 reports: each accepted, its issue flagged, then amended: 24 events.
        #expect(
            receiver.wait(seconds: 120) { _ in
                Set(Webhooks.firstAcknowledged(receiver).compactMap { $0["id"]?.stringValue }).count >= 24
            },
            "every event acknowledged")
        let acknowledged = Set(Webhooks.firstAcknowledged(receiver).compactMap { $0["id"]?.stringValue })
        let expected = Set(
            try ServerDatabases.query(url, "SELECT DISTINCT event_id FROM webhook_deliveries").split(separator: "\n")
                .map(String.init))
        #expect(expected.count == 24)
        #expect(
            acknowledged == expected, "the events the receiver acknowledged are the events the server made, none more")
        var pending = ""
        for _ in 0..<300 {
            pending = try ServerDatabases.query(
                url, "SELECT count(*) FROM webhook_deliveries WHERE state <> 'delivered'")
            if pending == "0" { break }
            usleep(100_000)
        }
        #expect(pending == "0", "the server recorded every delivery as delivered")
        #expect(
            try ServerDatabases.query(
                url,
                """
                SELECT count(*) FROM webhook_deliveries WHERE id IN (\(held.joined(separator: ","))) AND state = 'delivered'
                """) == String(held.count), "what the killed instance held was delivered by the other")

        let events = Webhooks.firstAcknowledged(receiver)
        let byReport = Dictionary(grouping: events, by: { Webhooks.report(of: $0) ?? "" })
        for (index, serverID) in serverIDs.enumerated() {
            #expect(
                byReport[serverID]?.map(Webhooks.label) == [
                    "report.accepted r1", "issue.flagged stain \(index)", "report.accepted r2",
                ])
        }
        #expect(receiver.wait(seconds: 10) { $0.count == receiver.arrived })
        let requests = receiver.requests
        let bodies = Dictionary(grouping: requests, by: { Webhooks.event($0)["id"]?.stringValue ?? "" }).mapValues {
            Set($0.map(\.body))
        }
        #expect(bodies.values.allSatisfy { $0.count == 1 }, "a repeat carries the same id and the same bytes")
        #expect(requests.allSatisfy { Webhooks.signed($0, secret: secret) })
        _ = survivor.stop()
    }
}
