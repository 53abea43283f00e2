import Foundation
import Models
import Testing
import TestSupport

/// PostgreSQL dies in the middle of a fleet's burst: two `jqc-server`
/// instances on one database, three devices' agents sending their reports,
/// the database stopped as a crash stops it (`pg_ctl stop -m immediate`) and
/// started again after a pause. The instances answer 503 with `Retry-After`
/// meanwhile, never exit, reconnect by themselves, and the devices finish:
/// every report on the server exactly once.
@Suite("PostgreSQL crashes while devices sync through two instances", .serialized)
struct PostgresCrashTests {
    /// A device signed in to `server` with `count` completed lobby reports.
    static func device(_ server: ServerProcess, reports count: Int) throws -> (DemoProfile, [String]) {
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        var ids: [String] = []
        for index in 0..<count {
            let id = try profile.start(["--template", "lobby-walk", "--facility", "F-100"])
            for (field, answer) in [("entrance", index % 3 == 0 ? "fail" : "pass"), ("glass", String(index % 5 + 1))] {
                try #require(try profile.jqc(["answer", id, field, answer]).status == 0)
            }
            try #require(try profile.jqc(["complete", id]).status == 0)
            ids.append(id)
        }
        return (profile, ids)
    }

    @Test(
        "the database crashes mid-burst and comes back: 503 with Retry-After meanwhile, both instances live on, every report stored once"
    )
    func crashMidBurst() async throws {
        let cluster = try PostgresCluster()
        let one = try ServerProcess(["--demo"], database: cluster.url)
        let two = try ServerProcess([], database: cluster.url)
        var devices: [(DemoProfile, [String])] = []
        for (index, server) in [one, two, one].enumerated() {
            devices.append(try Self.device(server, reports: 12 + index))
        }
        let expected = Set(devices.flatMap(\.1))

        // The agents run cycle after cycle, each until its device has nothing pending.
        let finished = PostgresLinkTests.drain(devices.map(\.0.home))
        // Within the first cycles, while batches are on their way.
        try await Task.sleep(for: .milliseconds(Int.random(in: 50...400)))
        try cluster.crash()
        // While the database is gone, an instance answers at once: 503 with Retry-After.
        let during = try await HTTPTestClient().send(
            "POST", one.url("/auth/login"),
            json: ["username": "inspector", "password": "inspector-pass"])
        #expect(during.status == 503, "\(during.status)")
        #expect(during.header("Retry-After") != nil)
        try await Task.sleep(for: .seconds(2))
        try cluster.restart()

        let codes = await finished.value
        #expect(codes == [0, 0, 0], "every agent finished: \(codes)")
        for server in [one, two] {
            #expect(kill(server.pid, 0) == 0, "the instance is still running")
        }
        for (profile, ids) in devices {
            for id in ids {
                #expect(try profile.show(id)["state"] == "SYNCED", "\(id)")
            }
        }
        let stored = try cluster.psql("SELECT local_id FROM reports ORDER BY local_id")
            .split(separator: "\n").map { $0.lowercased() }
        #expect(stored.count == expected.count, "\(stored.count) reports stored for \(expected.count) sent")
        #expect(Set(stored) == expected, "each report once, none other")
        let revisions = try cluster.psql("SELECT count(*) FROM report_revisions")
        #expect(
            revisions.trimmingCharacters(in: .whitespacesAndNewlines) == String(expected.count), "one revision each")
    }
}
