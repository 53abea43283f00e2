import Foundation
import Models
import Testing
import TestSupport

/// The network between an instance and PostgreSQL fails the ways networks
/// fail, through a TCP proxy of the tests' own (`FaultyLink`) between
/// `jqc-server` and a real cluster: it stalls (packets silently dropped, no
/// RST), drops every connection, or delays every packet. Requests are
/// answered within a bound a user would notice (503 with `Retry-After` when
/// the database cannot be reached), never 500 from a connection left broken
/// or mid-transaction, and after the heal a device's pending reports drain,
/// each stored once.
@Suite("The network to PostgreSQL stalls, drops or slows down", .serialized)
struct PostgresLinkTests {
    /// The longest wait for an answer accepted here: several times the
    /// server's own bounds (6 s an exchange, 4 s to connect), as four requests
    /// at once on a loaded 2-core machine may each meet two of them, yet well
    /// under the minutes a black-holed connection used to hold a request
    /// (the client gives up at 60 s).
    static let patience: TimeInterval = 45

    @Test(
        "a black hole mid-burst: 503 with Retry-After well before a client gives up, the instance answers on, and after the heal every report is stored once"
    )
    func blackHoleMidBurst() async throws {
        try await splitMidBurst(.blackHole)
    }

    @Test(
        "every connection dropped mid-burst: 503 with Retry-After well before a client gives up, the instance answers on, and after the heal every report is stored once"
    )
    func dropMidBurst() async throws {
        try await splitMidBurst(.drop)
    }

    @Test("every packet to and from PostgreSQL held 200 ms: sign-in and sync still succeed")
    func slowLink() async throws {
        let cluster = try PostgresCluster()
        let link = try FaultyLink(to: cluster.port)
        let server = try ServerProcess(["--demo"], database: link.url(instead: cluster.url))
        let (profile, ids) = try PostgresCrashTests.device(server, reports: 3)
        link.set(.delay(milliseconds: 200))

        let started = Date()
        let login = try await Self.login(server)
        #expect(login.status == 200, "\(login.status) \(login.message)")
        let sync = try profile.jqc(["sync"])
        #expect(sync.status == 0, "jqc sync over a slow link: \(sync.stdout) \(sync.stderr)")
        for id in ids {
            #expect(try profile.show(id)["state"] == "SYNCED", "\(id)")
        }
        #expect(Date().timeIntervalSince(started) < 120, "a slow link is slow, not stuck")
        let stored = try cluster.psql("SELECT count(*) FROM reports").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(stored == String(ids.count))
        #expect(!server.stderr.contains("\"status\":500"), "no request failed with a server error")
        link.stop()
    }

    /// Two devices sync through one instance; mid-burst the link turns to
    /// `mode` for a few seconds, then heals.
    func splitMidBurst(_ mode: FaultyLink.Mode) async throws {
        let cluster = try PostgresCluster()
        let link = try FaultyLink(to: cluster.port)
        let server = try ServerProcess(["--demo"], database: link.url(instead: cluster.url))
        var devices: [(DemoProfile, [String])] = []
        for index in 0..<2 {
            devices.append(try PostgresCrashTests.device(server, reports: 10 + index))
        }
        let expected = Set(devices.flatMap(\.1))
        let finished = Self.drain(devices.map(\.0.home))

        // Within the first cycles, while batches and their transactions are on their way.
        try await Task.sleep(for: .milliseconds(Int.random(in: 100...400)))
        link.set(mode)
        // Several requests at once, more after them: each is answered, 503 with Retry-After, within patience.
        let answers = try await withThrowingTaskGroup(of: (TestResponse, TimeInterval).self) { group in
            for _ in 0..<4 {
                group.addTask { try await Self.timedLogin(server) }
            }
            var answers: [(TestResponse, TimeInterval)] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
        let after = try await Self.timedLogin(server)
        for (response, seconds) in answers + [after] {
            #expect(response.status == 503, "\(response.status) \(response.message)")
            #expect(response.header("Retry-After") != nil)
            #expect(seconds < Self.patience, "answered in \(seconds) s")
        }
        try await Task.sleep(for: .seconds(2))
        link.set(.pass)

        // After the heal the instance connects anew and answers as before.
        var healed = try await Self.login(server)
        for _ in 0..<40 where healed.status != 200 {
            try await Task.sleep(for: .milliseconds(250))
            healed = try await Self.login(server)
        }
        #expect(healed.status == 200, "\(healed.status) \(healed.message)")
        let codes = await finished.value
        #expect(codes == [0, 0], "every agent finished: \(codes)")
        #expect(kill(server.pid, 0) == 0, "the instance is still running")
        for (profile, ids) in devices {
            for id in ids {
                let report = try profile.show(id)
                #expect(
                    report["state"] == "SYNCED",
                    "\(id): \(report["state"] ?? "missing"), \(report["last_error"] ?? "no error")")
            }
        }
        let stored = try cluster.psql("SELECT local_id FROM reports ORDER BY local_id")
            .split(separator: "\n").map { $0.lowercased() }
        #expect(stored.count == expected.count, "\(stored.count) reports stored for \(expected.count) sent")
        #expect(Set(stored) == expected, "each report once, none other")
        let revisions = try cluster.psql("SELECT count(*) FROM report_revisions")
        #expect(
            revisions.trimmingCharacters(in: .whitespacesAndNewlines) == String(expected.count), "one revision each")
        // A connection cut mid-transaction was never handed to a request again: no answer was a 500.
        let log = server.stderr
        #expect(log.contains("\"status\":503"), "the split was answered 503")
        #expect(log.contains("the database cannot be reached"), "the log says why")
        #expect(!log.contains("\"status\":500"), "no request failed with a server error")
        link.stop()
    }

    static func login(_ server: ServerProcess) async throws -> TestResponse {
        try await HTTPTestClient().send(
            "POST", server.url("/auth/login"), json: ["username": "inspector", "password": "inspector-pass"])
    }

    static func timedLogin(_ server: ServerProcess) async throws -> (TestResponse, TimeInterval) {
        let started = Date()
        let response = try await login(server)
        return (response, Date().timeIntervalSince(started))
    }

    /// Each device's agent, cycle after cycle until it has nothing pending; their last exit codes.
    /// Each device waits for its programs on a thread of its own, so the requests this test times
    /// are not held behind them.
    static func drain(_ homes: [String]) -> Task<[Int32], Never> {
        Task {
            await withTaskGroup(of: Int32.self) { group in
                for home in homes {
                    group.addTask { await OwnThread.run { drainOne(home) } }
                }
                var codes: [Int32] = []
                for await code in group { codes.append(code) }
                return codes
            }
        }
    }

    /// One device's agent, run again until it has nothing pending; its last exit code.
    static func drainOne(_ home: String) -> Int32 {
        var lastCode: Int32 = -1
        for _ in 0..<120 {
            // Reports answered 503 wait out their backoff, which can outlast this
            // loop on a loaded machine; the inspector pressing retry makes them due.
            _ = try? Programs.run("jqc", ["--home", home, "retry"])
            guard let outcome = try? Programs.run("jqc-agent", ["--home", home, "run", "--once"]) else {
                break
            }
            lastCode = outcome.status
            let status = try? Programs.run("jqc", ["--home", home, "status", "--json"])
            let pending = status.flatMap { try? JSONValue.parse(Data($0.stdout.utf8)) }?["pending"]?.numberValue
            if outcome.status == 0 && pending == 0 { return 0 }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return lastCode
    }
}
