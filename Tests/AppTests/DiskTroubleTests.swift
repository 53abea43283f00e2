import Foundation
import Models
import Storage
import Testing
import TestSupport
import SQLite

/// Disk trouble (docs/user-guide.md, "When something goes wrong"): the profile's disk runs full during a
/// photo import and during sync, the server's disk runs full, the store file is
/// cut short. Each time: one clear line, a documented exit code, nothing
/// already saved lost or damaged, and the work goes through once space is back.
/// The full disks are real: a small tmpfs mounted for the test (`SmallDisk`).
@Suite("Disk trouble")
struct DiskTroubleTests {
    /// A demo profile living on a small disk of its own, photos allowed down to
    /// the last byte (the storage floor set to 0) so the disk itself runs out.
    func profileOnSmallDisk(megabytes: Int = 3, floorMB: Int = 0) throws -> DemoProfile {
        let profile = try DemoProfile(on: try SmallDisk(megabytes: megabytes))
        let floor = try profile.jqc(["settings", "storage-floor-mb", String(floorMB)])
        try #require(floor.status == 0, "settings: \(floor.stderr)")
        return profile
    }

    func signIn(_ profile: DemoProfile, to server: ServerProcess) throws {
        let login = try profile.jqc(
            ["login", "--server", server.baseURL, "--username", "inspector", "--password-stdin"],
            stdin: "inspector-pass\n")
        try #require(login.status == 0, "login: \(login.stderr)")
    }

    func completedReport(_ profile: DemoProfile, photo: String? = nil) throws -> String {
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        if let photo {
            let added = try profile.jqc(["photo", "add", id, "--field", "14", photo])
            try #require(added.status == 0, "photo add: \(added.stderr)")
        }
        let completed = try profile.jqc(["complete", id])
        try #require(completed.status == 0, "complete: \(completed.stderr)")
        return id
    }

    /// What a person would check was kept: state, answers, photos, issues, score.
    func saved(_ profile: DemoProfile, _ ids: [String]) throws -> [JSONValue] {
        try ids.map { id -> JSONValue in
            let shown = try profile.show(id)
            return [
                "state": shown["state"] ?? .null, "answers": shown["answers"] ?? .null,
                "photos": .array(
                    (shown["photos"]?.arrayValue ?? []).map {
                        ["local_id": $0["local_id"] ?? .null, "byte_size": $0["byte_size"] ?? .null]
                    }),
                "score": shown["score"] ?? .null,
            ]
        }
    }

    /// SQLite's own check of the store file.
    func integrity(_ path: String) throws -> String {
        try Database(path: path, mode: .readOnly).scalar("PRAGMA integrity_check").stringValue ?? ""
    }

    /// Reports and revisions the server holds for these local ids.
    func serverCounts(_ databasePath: String, _ localIDs: [String]) throws -> (reports: [Int], revisions: Int) {
        let db = try Database(path: databasePath, mode: .readOnly)
        var reports: [Int] = [], revisions = 0
        for id in localIDs {
            let rows = try db.rows("SELECT server_id FROM reports WHERE lower(local_id) = ?", [.text(id.lowercased())])
            reports.append(rows.count)
            for row in rows {
                revisions += Int(
                    try db.scalar("SELECT count(*) FROM report_revisions WHERE server_id = ?", [row["server_id"]])
                        .int64Value ?? 0)
            }
        }
        return (reports, revisions)
    }

    /// One line on stderr saying the disk is full, no crash report.
    func expectDiskFullLine(
        _ outcome: ProcessOutcome, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            outcome.status == 1, "\(what): exit \(outcome.status): \(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(
            outcome.stderr.split(separator: "\n").count == 1, "\(what): \(outcome.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            outcome.stderr.contains("disk is full") && outcome.stderr.lowercased().contains("free some space"),
            "\(what): \(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(
            !outcome.stderr.contains("Fatal error") && !outcome.stderr.contains("Stack dump"),
            sourceLocation: sourceLocation)
    }

    @Test(
        "photo import on a full disk: DISK_FULL (exit 1) in one line, no photo half-saved, nothing saved lost; the same import works once space is back",
        arguments: [0, 64 * 1024])
    func photoImportOnFullDisk(leftBytes: Int) throws {
        let profile = try profileOnSmallDisk()
        let disk = try #require(profile.disk)
        let first = try profile.startDraft()
        try profile.answerRequired(first)
        let earlier = try profile.jqc([
            "photo", "add", first, "--field", "14", try profile.writeJPEG("earlier.jpg", width: 200, height: 150),
        ])
        try #require(earlier.status == 0, "\(earlier.stderr)")
        let second = try profile.startDraft()
        #expect(try profile.jqc(["answer", second, "2", "3"]).status == 0)
        let big = try profile.writeJPEG("big.jpg", width: 1600, height: 1200, seed: 9)
        let before = try saved(profile, [first, second])
        let photoFilesBefore = try profile.photoFolderContents()

        try disk.fill(leaving: Int64(leftBytes))
        let refused = try profile.jqc(["photo", "add", second, "--field", "14", big])
        expectDiskFullLine(refused, "photo add")
        let refusedJSON = try profile.document(["photo", "add", second, "--field", "14", big])
        #expect(refusedJSON.status == 1)
        #expect(refusedJSON.value["error"]?["code"] == "DISK_FULL", "\(refusedJSON.value)")
        #expect(
            try profile.photoFolderContents() == photoFilesBefore,
            "no photo file, finished or temporary, was left behind")

        disk.makeRoom()
        #expect(try saved(profile, [first, second]) == before, "every answer and photo saved before is still there")
        #expect(try integrity(profile.storePath) == "ok")
        let retried = try profile.jqc(["photo", "add", second, "--field", "14", big])
        #expect(retried.status == 0, "\(retried.stderr)")
        let photos = try profile.show(second)["photos"]?.arrayValue ?? []
        #expect(photos.count == 1)
        #expect(try profile.photoFolderContents().count == photoFilesBefore.count + 1)
    }

    @Test("the storage floor refuses a photo with STORAGE_LOW (exit 5) before the disk is full, and nothing is added")
    func storageFloorRefuses() throws {
        let profile = try profileOnSmallDisk(megabytes: 3, floorMB: 1)
        let disk = try #require(profile.disk)
        let draft = try profile.startDraft()
        let photo = try profile.writeJPEG("one.jpg", width: 200, height: 150)
        try disk.fill(leaving: 512 * 1024)
        let refused = try profile.jqc(["photo", "add", draft, photo])
        #expect(refused.status == 5, "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(
            refused.stderr.contains("Not enough space for photos") && refused.stderr.contains("1.0 MB kept free"),
            "\(refused.stderr)")
        #expect(try profile.document(["photo", "add", draft, photo]).value["error"]?["code"] == "STORAGE_LOW")
        #expect(try profile.show(draft)["photos"]?.arrayValue?.isEmpty == true)
        #expect(try profile.photoFolderContents().isEmpty)
        // Report creation is not blocked by the floor (BR-13): only photos are.
        #expect(try profile.jqc(["start", "--template", "101", "--facility", "F-100"]).status == 0)
        disk.makeRoom()
        #expect(try profile.jqc(["photo", "add", draft, photo]).status == 0)
    }

    @Test(
        "sync with the device's disk full at any moment: DISK_FULL (exit 1) from jqc and jqc-agent, nothing lost or damaged; once space is back, one server record per report"
    )
    func syncOnFullDisk() throws {
        let server = try ServerProcess(["--demo"])
        let profile = try profileOnSmallDisk()
        let disk = try #require(profile.disk)
        try signIn(profile, to: server)
        let ids = [
            try completedReport(profile, photo: try profile.writeJPEG("one.jpg", width: 320, height: 240)),
            try completedReport(profile), try completedReport(profile),
        ]
        let before = try saved(profile, ids)

        try disk.fill()
        expectDiskFullLine(try profile.jqc(["sync"]), "jqc sync")
        expectDiskFullLine(try profile.agent(["run", "--once"]), "jqc-agent run --once")
        disk.makeRoom()
        #expect(try saved(profile, ids) == before)
        #expect(try serverCounts(server.databasePath, ids).reports == [0, 0, 0])

        // Let the disk run out later and later in the cycle, a page at a time:
        // while the reference data is stored, after the server took the batch
        // but before the device could record it, between the photos...
        // Whatever the moment, nothing is lost and nothing doubles.
        var left: Int64 = 4 * 1024
        var finished = false
        var serverAheadOfDevice = false
        while !finished && left <= 512 * 1024 {
            try disk.fill(leaving: left)
            let sync = try profile.jqc(["sync"])
            disk.makeRoom()
            if sync.status != 0 { expectDiskFullLine(sync, "jqc sync with \(left / 1024) KB free") }
            #expect(try integrity(profile.storePath) == "ok", "\(left / 1024) KB free")
            let now = try saved(profile, ids)
            for (index, report) in now.enumerated() {
                #expect(report["answers"] == before[index]["answers"], "\(left / 1024) KB free: answers kept")
                #expect(report["photos"] == before[index]["photos"], "\(left / 1024) KB free: photos kept")
                #expect(
                    report["state"] == "PENDING" || report["state"] == "SYNCED", "\(left / 1024) KB free: \(report)")
            }
            let onServer = try serverCounts(server.databasePath, ids).reports
            #expect(onServer.allSatisfy { $0 <= 1 })
            serverAheadOfDevice =
                serverAheadOfDevice
                || (sync.status != 0 && onServer.contains(1)
                    && now.contains { $0["state"] == "PENDING" })
            finished = sync.status == 0 && now.allSatisfy { $0["state"] == "SYNCED" }
            left += 4 * 1024
        }
        #expect(
            serverAheadOfDevice, "one run failed after the server had stored the batch, which the next run replayed")
        if !finished {
            let sync = try profile.jqc(["sync"])
            #expect(sync.status == 0, "\(sync.stderr)")
        }
        for id in ids { #expect(try profile.show(id)["state"] == "SYNCED") }
        let counts = try serverCounts(server.databasePath, ids)
        #expect(counts.reports == [1, 1, 1], "exactly one server record per report")
        #expect(counts.revisions == ids.count, "no replay made a second revision")
    }

    @Test(
        "the server's disk full: the server answers an error and keeps running, the device keeps the report PENDING (exit 75); once space is back it is taken once"
    )
    func serverDiskFull() throws {
        let serverDisk = try SmallDisk(megabytes: 4)
        let server = try ServerProcess(["--demo"], database: serverDisk.path("server.db"))
        let profile = try DemoProfile()
        try signIn(profile, to: server)
        let id = try completedReport(profile)

        try serverDisk.fill()
        let refused = try profile.jqc(["sync"])
        #expect(refused.status == 75, "\(refused.stdout) \(refused.stderr)")
        #expect(
            refused.stderr.contains("disk is full"),
            "the server's reason reaches the person, on stderr: \(refused.stderr)")
        #expect(try profile.show(id)["state"] == "PENDING")
        #expect(try serverCounts(server.databasePath, [id]).reports == [0])

        serverDisk.makeRoom()
        #expect(try profile.jqc(["retry"]).status == 0)
        let sync = try profile.jqc(["sync"])
        #expect(sync.status == 0, "the same server process, still running, takes it: \(sync.stdout) \(sync.stderr)")
        #expect(try profile.show(id)["state"] == "SYNCED")
        let counts = try serverCounts(server.databasePath, [id])
        #expect(counts.reports == [1])
        #expect(counts.revisions == 1)
        #expect(server.stop() == 0, "the server ends cleanly: it never crashed")
        serverDisk.unmount()
    }

    @Test(
        "a real store cut in half is refused by jqc and jqc-agent in one line (STORE_CORRUPT, exit 1) and left byte-identical"
    )
    func truncatedStore() throws {
        let profile = try DemoProfile()
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        let whole = try Data(contentsOf: URL(fileURLWithPath: profile.storePath))
        try #require(whole.count >= 8 * 4096)
        let half = whole.prefix(whole.count / 2)
        try half.write(to: URL(fileURLWithPath: profile.storePath))

        for arguments in [
            ["list"], ["show", id], ["answer", id, "2", "5"], ["start", "--template", "101", "--facility", "F-100"],
        ] {
            let outcome = try profile.jqc(arguments)
            #expect(outcome.status == 1, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(arguments): \(outcome.stderr)")
            #expect(
                outcome.stderr.contains("is not a jqc store or is damaged; it was left untouched"),
                "\(arguments): \(outcome.stderr)")
        }
        #expect(try profile.document(["list"]).value["error"]?["code"] == "STORE_CORRUPT")
        let agent = try profile.agent(["run", "--once"])
        #expect(agent.status == 1, "\(agent.stderr)")
        #expect(agent.stderr.split(separator: "\n").count == 1)
        #expect(agent.stderr.contains("left untouched"), "\(agent.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: profile.storePath)) == half)
    }
}
