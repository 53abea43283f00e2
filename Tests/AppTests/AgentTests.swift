import Foundation
import Models
import Testing
import TestSupport

/// `jqc-agent` as cron and systemd run it: real processes, a real server on loopback.
@Suite("jqc-agent")
struct AgentTests {
    static let demo: Result<ServerProcess, any Error> = Result { try ServerProcess(["--demo"]) }

    func signedIn(to baseURL: String) throws -> DemoProfile { try DemoProfile.signedIn(to: baseURL) }

    func pendingReport(_ profile: DemoProfile) throws -> String {
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        try #require(try profile.jqc(["complete", id]).status == 0)
        return id
    }

    func logLines(_ path: String) throws -> [JSONValue] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    @Test("run --once uploads the pending work, logs JSON lines and writes the metrics file")
    func once() throws {
        let server = try Self.demo.get()
        let profile = try signedIn(to: server.baseURL)
        let id = try pendingReport(profile)
        let log = profile.path("agent.log"), metrics = profile.path("jqc.prom")
        let outcome = try Programs.run(
            "jqc-agent", ["--home", profile.home, "run", "--once", "--log-file", log, "--metrics-file", metrics])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
        #expect(try profile.show(id)["state"] == "SYNCED")
        let lines = try logLines(log)
        #expect(lines.map { $0["event"]?.stringValue } == ["cycle_started", "cycle_finished"])
        #expect(lines.allSatisfy { $0["ts"]?.stringValue != nil && $0["level"]?.stringValue != nil })
        #expect(lines[0]["pending"] == 1, "the cycle's first line says how many reports were waiting")
        #expect(lines[1]["accepted"] == 1)
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(text.contains("jqc_reports_pending 0\n"))
        #expect(text.contains("jqc_sync_last_accepted 1\n"))
        #expect(text.contains("jqc_sync_last_cycle_ok 1\n"))
    }

    @Test("the server unreachable: exit 75, 'Waiting for network. N reports pending.', nothing changed")
    func offline() throws {
        // A server that is started and stopped leaves a loopback port with nobody listening.
        let gone = try ServerProcess(["--demo"])
        let url = gone.baseURL
        let profile = try signedIn(to: url)
        _ = gone.stop()
        let id = try pendingReport(profile)
        let before = try profile.show(id)
        let outcome = try Programs.run("jqc-agent", ["--home", profile.home, "run", "--once"])
        #expect(outcome.status == 75)
        let lines = try outcome.stderr.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(
            lines.contains { $0["event"] == "offline" && $0["message"] == "Waiting for network. 1 report pending." })
        let after = try profile.show(id)
        #expect(after["state"] == "PENDING")
        #expect(after["answers"] == before["answers"])
    }

    @Test("two agents at once: the second exits 73 at once; SIGTERM stops the first cleanly after its cycle")
    func twoAgents() throws {
        let server = try Self.demo.get()
        let profile = try signedIn(to: server.baseURL)
        let log = profile.path("first.log")
        let first = try Programs.start(
            "jqc-agent", ["--home", profile.home, "run", "--interval", "1", "--log-file", log])
        defer { if first.isRunning { first.terminate() } }
        // The first agent holds the lock once it has logged its start.
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, (try? String(contentsOfFile: log, encoding: .utf8))?.contains("agent_started") != true
        {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let second = try Programs.run("jqc-agent", ["--home", profile.home, "run", "--once"])
        #expect(second.status == 73)
        #expect(second.stderr == "jqc-agent: Another jqc-agent is already syncing this profile; this one stops.\n")

        first.signal(SIGTERM)
        #expect(first.wait() == ChildExit(status: 0, signalled: false))
        #expect(try logLines(log).last?["event"] == "agent_stopped")
    }

    @Test("jqc answer while the agent syncs the same store: both succeed, nothing lost, no 'database is locked'")
    func editWhileSyncing() throws {
        let server = try Self.demo.get()
        let profile = try signedIn(to: server.baseURL)
        for _ in 0..<3 { _ = try pendingReport(profile) }
        let draft = try profile.startDraft()
        let log = profile.path("agent.log")
        let agent = try Programs.start(
            "jqc-agent", ["--home", profile.home, "run", "--interval", "1", "--log-file", log])
        defer { if agent.isRunning { agent.terminate() } }
        var failures: [String] = []
        for n in 1...40 {
            let outcome = try profile.jqc(["answer", draft, "17", "note \(n)"])
            if outcome.status != 0 { failures.append(outcome.stderr) }
        }
        agent.signal(SIGTERM)
        let stopped = agent.wait()
        #expect(failures.isEmpty, "\(failures)")
        #expect(stopped == ChildExit(status: 0, signalled: false))
        #expect(try profile.show(draft)["answers"]?["17"] == "note 40")
        let logText = try String(contentsOfFile: log, encoding: .utf8)
        #expect(!logText.contains("database is locked"))
        #expect(
            try profile.document(["status"]).value["pending"] == 0, "the agent uploaded the three reports meanwhile")
    }

    @Test("jqc sync while another cycle holds the profile: it waits for that cycle to end, then syncs")
    func syncWaitsForRunningCycle() throws {
        let server = try Self.demo.get()
        let profile = try signedIn(to: server.baseURL)
        let id = try pendingReport(profile)
        // This test process plays the cycle already running: it holds the profile's sync lock.
        let fd = open(profile.home + "/sync.lock", O_RDWR | O_CREAT, 0o600)
        try #require(fd >= 0 && flock(fd, LOCK_EX) == 0)
        let sync = Process()
        sync.executableURL = URL(fileURLWithPath: Programs.path("jqc"))
        sync.arguments = ["--home", profile.home, "sync"]
        let stderr = Pipe()
        sync.standardError = stderr
        sync.standardOutput = FileHandle.nullDevice
        try sync.run()
        // Read what it says until it says it is waiting (or ends).
        var said = Data()
        let waiting = Data("Another sync of this profile is running; waiting for it to finish…".utf8)
        while said.range(of: waiting) == nil {
            let chunk = stderr.fileHandleForReading.readAvailable()
            if chunk.isEmpty { break }
            said.append(chunk)
        }
        #expect(said.range(of: waiting) != nil, "\(String(decoding: said, as: UTF8.self))")
        #expect(try profile.show(id)["state"] == "PENDING", "nothing is sent while the other cycle runs")
        flock(fd, LOCK_UN)
        close(fd)
        said.append(try stderr.fileHandleForReading.readToEnd() ?? Data())
        sync.waitUntilExit()
        #expect(sync.terminationStatus == 0, "\(String(decoding: said, as: UTF8.self))")
        #expect(try profile.show(id)["state"] == "SYNCED")
    }
}
