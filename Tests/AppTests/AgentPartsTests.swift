import Foundation
import JQCAgent
import JQCCore
import Models
import Testing
import TestSupport

@Suite("The agent's lock, log and metrics")
struct AgentPartsTests {
    @Test("a second agent on the same profile finds the lock taken (exit 73) until the first lets go")
    func lock() throws {
        let profile = TemporaryDirectory(prefix: "jqc-lock")
        var first: ProfileLock? = try ProfileLock.agent(profileDirectory: profile.url)
        #expect(first != nil)
        #expect(
            throws: AppError(
                code: .agentRunning, "Another jqc-agent is already syncing this profile; this one stops.", exitCode: 73)
        ) {
            _ = try ProfileLock.agent(profileDirectory: profile.url)
        }
        first = nil
        #expect(throws: Never.self) { _ = try ProfileLock.agent(profileDirectory: profile.url) }
    }

    @Test("log lines are one JSON object each with ts, level and event, appended to the file")
    func log() throws {
        let folder = TemporaryDirectory(prefix: "jqc-log")
        let path = folder.path("agent.log")
        let fixed = Date(timeIntervalSince1970: 1_800_000_000)
        let log = try AgentLog(file: path, now: { fixed })
        log.log(.info, "cycle_started", ["pending": 3])
        log.log(.warn, "offline", ["message": "Waiting for network. 3 reports pending."])
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let first = try JSONValue.parse(String(lines[0]))
        #expect(first["event"] == "cycle_started")
        #expect(first["level"] == "info")
        #expect(first["pending"] == 3)
        #expect(first["ts"]?.stringValue?.hasPrefix("2027-01-15T08:00:00") == true)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("metrics are Prometheus text, written whole")
    func metrics() throws {
        let folder = TemporaryDirectory(prefix: "jqc-metrics")
        let file = MetricsFile(path: folder.path("jqc.prom"))
        try file.write([
            .init("jqc_reports_pending", 4, help: "Reports waiting to upload."),
            .init("jqc_sync_cycles_total", 12, help: "Sync cycles run.", type: "counter"),
            .init("jqc_last_sync_duration_seconds", 1.5, help: "Duration of the last cycle."),
        ])
        let text = try String(contentsOfFile: folder.path("jqc.prom"), encoding: .utf8)
        #expect(
            text == """
                # HELP jqc_reports_pending Reports waiting to upload.
                # TYPE jqc_reports_pending gauge
                jqc_reports_pending 4
                # HELP jqc_sync_cycles_total Sync cycles run.
                # TYPE jqc_sync_cycles_total counter
                jqc_sync_cycles_total 12
                # HELP jqc_last_sync_duration_seconds Duration of the last cycle.
                # TYPE jqc_last_sync_duration_seconds gauge
                jqc_last_sync_duration_seconds 1.5

                """)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["jqc.prom"],
            "no temporary file left behind")
    }
}
