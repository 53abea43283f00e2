import Foundation
import Models
import Storage
import Testing
import TestSupport
import SQLite

/// What sync promises beyond the sync journey: order across reports, batches
/// and photos, the retry ceiling, expiry of synced reports. Real `jqc`/`jqc-agent`, real `jqc-server`.
@Suite("Sync acceptance criteria")
struct SyncAcceptanceTests {
    func signedIn(to baseURL: String) throws -> DemoProfile { try DemoProfile.signedIn(to: baseURL) }

    func completedReport(_ profile: DemoProfile, photos: [String] = []) throws -> String {
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        if !photos.isEmpty {
            let added = try profile.jqc(["photo", "add", id, "--field", "14"] + photos)
            try #require(added.status == 0, "photo add: \(added.stderr)")
        }
        try #require(try profile.jqc(["complete", id]).status == 0)
        return id
    }

    /// Counts in the server's own database: reports for these local ids, and their revisions.
    func serverCounts(_ databasePath: String, _ localIDs: [String]) throws -> (reports: Int, revisions: Int) {
        let db = try Database(path: databasePath, mode: .readOnly)
        var reports = 0, revisions = 0
        for id in localIDs {
            let rows = try db.rows("SELECT server_id FROM reports WHERE lower(local_id) = ?", [.text(id.lowercased())])
            reports += rows.count
            for row in rows {
                revisions += Int(
                    try db.scalar("SELECT count(*) FROM report_revisions WHERE server_id = ?", [row["server_id"]])
                        .int64Value ?? 0)
            }
        }
        return (reports, revisions)
    }

    @Test(
        "AC-03: one of three photos fails after acceptance: the report stays PENDING with '1 left'; the other two are up"
    )
    func onePhotoFails() throws {
        let server = try ServerProcess(["--demo", "--max-photo-bytes", "150000"])
        let profile = try signedIn(to: server.baseURL)
        #expect(try profile.jqc(["settings", "photo-quality", "95"]).status == 0)
        let small1 = try profile.writeJPEG("small1.jpg", width: 200, height: 150, seed: 1)
        let small2 = try profile.writeJPEG("small2.jpg", width: 200, height: 150, seed: 2)
        let big = try profile.writeJPEG("big.jpg", width: 1600, height: 1200, seed: 3)
        let id = try completedReport(profile, photos: [small1, small2, big])

        #expect(try profile.jqc(["sync"]).status == 0)
        let shown = try profile.show(id)
        #expect(shown["state"] == "PENDING")
        #expect(shown["server_id"]?.stringValue != nil, "the report itself was accepted")
        let states = shown["photos"]?.arrayValue?.compactMap { $0["upload_state"]?.stringValue }.sorted()
        #expect(states == ["FAILED", "UPLOADED", "UPLOADED"])
        #expect(shown["last_error"]?["code"] == "PHOTO_UPLOAD_FAILED")
        #expect(
            shown["last_error"]?["message"]?.stringValue?.contains("1 left") == true, "\(shown["last_error"] ?? .null)")
    }

    @Test("AC-09: photo sources gone after import (permission revoked): the photos already captured still upload")
    func sourcesGoneAfterImport() throws {
        let server = try ServerProcess(["--demo"])
        let profile = try signedIn(to: server.baseURL)
        let first = try profile.writeJPEG("one.jpg", seed: 7), second = try profile.writeJPEG("two.jpg", seed: 8)
        let id = try completedReport(profile, photos: [first, second])
        try FileManager.default.removeItem(atPath: first)
        try FileManager.default.removeItem(atPath: second)
        #expect(try profile.jqc(["sync"]).status == 0)
        let shown = try profile.show(id)
        #expect(shown["state"] == "SYNCED")
        #expect(shown["photos"]?.arrayValue?.map { $0["upload_state"] } == ["UPLOADED", "UPLOADED"])
        // New capture from a source that is gone is refused, and says completion is still possible.
        let draft = try profile.startDraft()
        let refused = try profile.jqc(["photo", "add", draft, first])
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("You can still complete this report."))
    }

    @Test(
        "AC-04/05 to the end: diff shows both revisions; keep mine re-uploads on the refreshed base and the server takes it"
    )
    func keepMineReuploads() async throws {
        let server = try ServerProcess(["--demo"])
        let profile = try signedIn(to: server.baseURL)
        let id = try completedReport(profile)
        #expect(try profile.jqc(["sync"]).status == 0)
        let serverID = try #require(try profile.show(id)["server_id"]?.stringValue)
        #expect(try profile.jqc(["amend", id]).status == 0)
        #expect(try profile.jqc(["answer", id, "2", "5"]).status == 0)
        try profile.sign(id)
        #expect(try profile.jqc(["complete", id]).status == 0)
        let edit = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "edit-report", serverID, "--answer", "3=1"])
        try #require(edit.status == 0, "\(edit.stderr)")
        #expect(try profile.jqc(["sync"]).status == 7)

        let diff = try profile.document(["diff", id]).value
        let differing = diff["fields"]?.arrayValue?.filter { $0["differs"] == true }.compactMap {
            $0["field_id"]?.stringValue
        }.sorted()
        #expect(differing == ["18", "2", "3"], "mine changed field 2 and was signed again, the server changed field 3")
        let serverRevision = try #require(diff["server_revision"]?.integerValue)

        let (status, resolved) = try profile.document(["resolve", id, "--keep-mine"])
        #expect(status == 0)
        #expect(resolved["base_revision"]?.integerValue == serverRevision)
        #expect(try profile.jqc(["sync"]).status == 0)
        let synced = try profile.show(id)
        #expect(synced["state"] == "SYNCED")
        #expect((synced["base_revision"]?.integerValue ?? 0) > serverRevision)

        let session = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"),
            json: ["username": "inspector", "password": "inspector-pass"])
        let token = try #require(session.data["access_token"]?.stringValue)
        let remote = try await HTTPTestClient().send("GET", server.url("/reports/\(serverID)"), token: token)
        #expect(remote.data["report"]?["payload"]?["answers"]?["2"] == 5, "the server holds my answer now")
        #expect(remote.data["report"]?["revision"]?.integerValue == synced["base_revision"]?.integerValue)
    }

    @Test(
        "AC-06: the agent killed with SIGKILL after the server stored the batch but before the answer: after a rerun, one server record per report"
    )
    func killedAfterServerStored() throws {
        let faulty = try ServerProcess(["--demo", "--fault-after-accept", "1"])
        let database = faulty.databasePath
        let profile = try signedIn(to: faulty.baseURL)
        let ids = try (0..<3).map { _ in try completedReport(profile) }

        let agent = try Programs.start(
            "jqc-agent", ["--home", profile.home, "run", "--once", "--log-file", profile.path("agent.log")])
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, (try? serverCounts(database, ids).reports) ?? 0 < ids.count {
            Thread.sleep(forTimeInterval: 0.02)
        }
        agent.signal(SIGKILL)
        agent.wait()
        #expect(try serverCounts(database, ids).reports == ids.count, "the server stored the batch")
        for id in ids { #expect(try profile.show(id)["state"] == "PENDING", "no answer reached the device") }

        // The same server data, now answering normally; the saved session still names the old port.
        _ = faulty.stop()
        let healthy = try ServerProcess([], database: database)
        let credentials = profile.directory.path("credentials.json")
        var saved = try #require(try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: credentials))).objectValue)
        saved["server_url"] = .string(healthy.baseURL)
        try JSONValue.object(saved).canonicalData().write(to: URL(fileURLWithPath: credentials))
        #expect(try profile.jqc(["retry"]).status == 0)
        let rerun = try Programs.run("jqc-agent", ["--home", profile.home, "run", "--once"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        for id in ids { #expect(try profile.show(id)["state"] == "SYNCED") }
        let counts = try serverCounts(database, ids)
        #expect(counts.reports == ids.count, "exactly one server record per report")
        #expect(counts.revisions == ids.count, "the replay made no second revision")
    }
}
