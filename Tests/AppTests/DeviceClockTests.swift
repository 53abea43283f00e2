import Foundation
import Models
import Storage
import Testing
import TestSupport
import SQLite

/// BR-07: the device clock is never used for ordering or conflict decisions.
/// `jqc` and `jqc-agent` run with their clock set far ahead or far behind
/// (libfaketime, `DeviceClock`); the server keeps the real clock. Each test
/// first checks that the wrong time is what the device recorded, so it
/// cannot pass with a clock that was never faked.
@Suite("Device clock far ahead or behind")
struct DeviceClockTests {
    static let ahead = DeviceClock.yearsAhead(10)
    static let behind = DeviceClock.year(1990)

    func signedIn(to server: ServerProcess) throws -> DemoProfile { try DemoProfile.signedIn(to: server.baseURL) }

    /// A report started, answered and completed with `clock` (nil: the real one).
    func completedReport(_ profile: DemoProfile, clock: DeviceClock?) throws -> String {
        let id = try profile.startDraft(clock: clock)
        try profile.answerRequired(id, clock: clock)
        let completed = try profile.jqc(["complete", id], clock: clock)
        try #require(completed.status == 0, "complete: \(completed.stderr)")
        return id
    }

    /// The year of a stored RFC 3339 time ("2036-...").
    func year(_ value: JSONValue?) -> Int? {
        value?.stringValue.flatMap { Int($0.prefix(4)) }
    }

    func realYear() -> Int {
        DeviceClock(start: Date()).startYear
    }

    /// Points the saved session at a restarted server on another port.
    func point(_ profile: DemoProfile, at server: ServerProcess) throws {
        let url = URL(fileURLWithPath: profile.home).appendingPathComponent("credentials.json")
        var saved = try #require(try JSONValue.parse(Data(contentsOf: url)).objectValue)
        saved["server_url"] = .string(server.baseURL)
        try JSONValue.object(saved).canonicalData().write(to: url)
    }

    /// The server's reports for these local ids: how many rows and revisions.
    func serverCounts(_ databasePath: String, _ localID: String) throws -> (reports: Int, revisions: Int) {
        let db = try Database(path: databasePath, mode: .readOnly)
        let rows = try db.rows("SELECT server_id FROM reports WHERE lower(local_id) = ?", [.text(localID.lowercased())])
        var revisions = 0
        for row in rows {
            revisions += Int(
                try db.scalar("SELECT count(*) FROM report_revisions WHERE server_id = ?", [row["server_id"]])
                    .int64Value ?? 0)
        }
        return (rows.count, revisions)
    }

    @Test(
        "reports made with the clock 10 years ahead, in 1990 and right, interleaved, reach the server in creation order"
    )
    func creationOrderIgnoresTheClock() throws {
        let server = try ServerProcess(["--demo"])
        let profile = try signedIn(to: server)
        let clocks: [DeviceClock?] = [Self.ahead, Self.behind, nil, Self.ahead, Self.behind]
        var ids: [String] = []
        for clock in clocks {
            let id = try completedReport(profile, clock: clock)
            let recorded = try profile.show(id)["completed_at_device"]
            #expect(
                year(recorded) == clock?.startYear ?? realYear(),
                "the device recorded its wrong clock: \(recorded ?? .null)")
            ids.append(id)
        }
        let listed = try profile.document(["list"]).value["reports"]?.arrayValue?.compactMap {
            $0["local_id"]?.stringValue
        }
        #expect(listed == ids.reversed(), "'jqc list' shows newest first by creation, whatever the clock said")

        let sync = try profile.jqc(["sync"], clock: Self.behind)
        #expect(sync.status == 0, "\(sync.stdout) \(sync.stderr)")
        let db = try Database(path: server.databasePath, mode: .readOnly)
        let received = try db.rows("SELECT local_id, completed_at_device FROM reports ORDER BY seq")
        #expect(
            received.compactMap { $0["local_id"].stringValue?.lowercased() } == ids.map { $0.lowercased() },
            "the server received them in the order they were made")
        #expect(
            received.map { year(.string($0["completed_at_device"].stringValue ?? "")) }
                == clocks.map { $0?.startYear ?? realYear() },
            "the wrong times travelled as diagnostics only")
    }

    @Test(
        "a conflict is detected and resolved by revisions with the device clock far ahead or far behind",
        arguments: [DeviceClockTests.ahead, DeviceClockTests.behind])
    func conflictIgnoresTheClock(clock: DeviceClock) throws {
        let server = try ServerProcess(["--demo"])
        let profile = try signedIn(to: server)
        let id = try completedReport(profile, clock: clock)
        #expect(try profile.jqc(["sync"], clock: clock).status == 0)
        let synced = try profile.show(id)
        let serverID = try #require(synced["server_id"]?.stringValue)
        #expect(year(synced["completed_at_device"]) == clock.startYear)

        #expect(try profile.jqc(["amend", id], clock: clock).status == 0)
        #expect(try profile.jqc(["answer", id, "2", "5"], clock: clock).status == 0)
        try profile.sign(id, clock: clock)
        #expect(try profile.jqc(["complete", id], clock: clock).status == 0)
        // A supervisor edits the server's copy meanwhile, on the server's real clock.
        let edit = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "edit-report", serverID, "--answer", "3=1"])
        try #require(edit.status == 0, "\(edit.stderr)")

        let conflicted = try profile.jqc(["sync"], clock: clock)
        #expect(
            conflicted.status == 7,
            "a newer server revision is a conflict, whatever the device clock: \(conflicted.stdout)")
        #expect(try profile.show(id)["state"] == "CONFLICT")
        let diff = try profile.document(["diff", id], clock: clock).value
        let differing = diff["fields"]?.arrayValue?.filter { $0["differs"] == true }.compactMap {
            $0["field_id"]?.stringValue
        }.sorted()
        #expect(differing == ["18", "2", "3"], "mine changed field 2 and was signed again, the server changed field 3")

        #expect(try profile.document(["resolve", id, "--keep-mine"], clock: clock).status == 0)
        #expect(try profile.jqc(["sync"], clock: clock).status == 0)
        let resolved = try profile.show(id)
        #expect(resolved["state"] == "SYNCED")
        let db = try Database(path: server.databasePath, mode: .readOnly)
        let current = try #require(
            try db.firstRow("SELECT current_revision FROM reports WHERE server_id = ?", [.text(serverID)]))
        #expect(current["current_revision"].int64Value == resolved["base_revision"]?.integerValue)
        let payload = try db.scalar(
            "SELECT payload FROM report_revisions WHERE server_id = ? AND revision = ?",
            [.text(serverID), current["current_revision"]])
        let answers = try JSONValue.parse(Data((payload.stringValue ?? "").utf8))["answers"]
        #expect(answers?["2"] == 5, "the server holds the answer the person kept")
        #expect(answers?["3"] == 4, "keeping mine replaced the supervisor's edit, by decision, not by timestamp")
    }

    @Test(
        "a failed upload is not stranded when the clock jumps back: failed 10 years ahead then sent on the real clock; failed on the real clock then sent in 1990",
        arguments: [(DeviceClockTests.ahead, nil), (nil, DeviceClockTests.behind)] as [(DeviceClock?, DeviceClock?)])
    func retryIsNotStrandedByTheClock(failingClock: DeviceClock?, retryClock: DeviceClock?) throws {
        // The server stores the batch, then drops the connection: the device sees a failure and backs off.
        let faulty = try ServerProcess(["--demo", "--fault-after-accept", "1"])
        let profile = try signedIn(to: faulty)
        let id = try completedReport(profile, clock: failingClock)
        let failed = try profile.jqc(["sync"], clock: failingClock)
        #expect(failed.status == 75, "\(failed.stdout) \(failed.stderr)")
        let waiting = try profile.show(id)
        #expect(waiting["state"] == "PENDING")
        #expect(waiting["attempt_count"] == 1)

        _ = faulty.stop()
        let healthy = try ServerProcess([], database: faulty.databasePath)
        try point(profile, at: healthy)
        let retried = try profile.agent(["run", "--once"], clock: retryClock)
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(
            try profile.show(id)["state"] == "SYNCED",
            "the retry was due: a retry time years away cannot come from the backoff")
        let counts = try serverCounts(healthy.databasePath, id)
        #expect(counts.reports == 1, "the replay made no second server record")
        #expect(counts.revisions == 1)
    }
}
