import Foundation
import Models
import SQLite
import Testing
import TestSupport

/// The server's disk fills (the SQLite file, its photo folder and the upload
/// folder beside it on a small tmpfs that the test fills to the last byte):
/// uploads and syncs are refused 507 `STORAGE_FULL` with `Retry-After`,
/// nothing accepted is lost, the store passes its integrity check, reads go
/// on, and once there is room the same device finishes. A tmpfs cannot fill
/// a PostgreSQL cluster, so these run on a SQLite server in both suite runs
/// (`sqlite: true`); on PostgreSQL the database answers `disk_full` as a full
/// cluster would, from a trigger the test installs.
@Suite("The server's disk full", .serialized)
struct DiskFullTests {
    /// A demo server whose database, photos and upload folder live on a small disk.
    func serverOnSmallDisk() throws -> (SmallDisk, ServerProcess) {
        let disk = try SmallDisk(megabytes: 8)
        let server = try ServerProcess(["--demo"], database: disk.path("server.db"), sqlite: true)
        return (disk, server)
    }

    /// A completed report of template 101, with one photo.
    func completedReport(_ profile: DemoProfile, photo name: String, seed: UInt32) throws -> String {
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        let added = try profile.jqc(["photo", "add", id, "--field", "14", try profile.writeJPEG(name, seed: seed)])
        try #require(added.status == 0, "photo add: \(added.stderr)")
        let completed = try profile.jqc(["complete", id])
        try #require(completed.status == 0, "complete: \(completed.stderr)")
        return id
    }

    /// SQLite's own check of the server's database, through a connection of its own.
    func integrity(_ path: String) throws -> String {
        try Database(path: path, mode: .readOnly).scalar("PRAGMA integrity_check").stringValue ?? ""
    }

    /// How many reports, then photos, the server holds for a device's report.
    func held(_ databasePath: String, _ localID: String) throws -> [Int] {
        let db = try Database(path: databasePath, mode: .readOnly)
        let ids = try db.rows("SELECT server_id FROM reports WHERE lower(local_id) = ?", [.text(localID.lowercased())])
        var photos = 0
        for row in ids {
            photos += Int(
                try db.scalar("SELECT count(*) FROM photos WHERE server_id = ?", [row["server_id"]]).int64Value ?? 0)
        }
        return [ids.count, photos]
    }

    /// Files under the server's upload folder (its partial uploads and streamed bodies).
    func incoming(_ server: ServerProcess) -> [String: Int64] {
        var files: [String: Int64] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: server.uploadDirectory)) ?? [] {
            let size =
                (try? FileManager.default.attributesOfItem(atPath: server.uploadDirectory + "/" + name)[.size]
                as? NSNumber)??.int64Value
            files[name] = size ?? -1
        }
        return files
    }

    /// The lines of the server's log that say its disk is full.
    func diskFullLines(_ server: ServerProcess) -> Int {
        server.stderr.split(separator: "\n").filter { $0.contains("the server's disk is full") }.count
    }

    /// The syncs the server's access log shows refused 507.
    func refusedSyncs(_ server: ServerProcess) -> Int {
        server.stderr.split(separator: "\n").filter {
            $0.contains(#""route":"/api/v1/reports/sync""#) && $0.contains(#""status":507"#)
        }.count
    }

    @Test(
        "jqc sync into a full server disk: 507 STORAGE_FULL, exit 75 in one line naming the server's full disk, reports and photos kept on the device; earlier work still served; once there is room the same device finishes, each held once"
    )
    func syncJourney() async throws {
        let (disk, server) = try serverOnSmallDisk()
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        let earlier = try completedReport(profile, photo: "earlier.jpg", seed: 1)
        let first = try profile.jqc(["sync"])
        try #require(first.status == 0, "\(first.stdout) \(first.stderr)")
        let earlierServerID = try #require(try profile.show(earlier)["server_id"]?.stringValue)
        let later = try completedReport(profile, photo: "later.jpg", seed: 2)
        // Signed in before: a sign-in writes a session, which a full disk refuses too.
        let me = try await Session.inspector(server)

        try disk.fill()
        let refused = try profile.jqc(["sync"])
        #expect(refused.status == 75, "as for an unavailable server: \(refused.stdout) \(refused.stderr)")
        let said = refused.stderr.split(separator: "\n").filter { $0.contains("STORAGE_FULL") }
        #expect(said.count == 1, "one line: \(refused.stderr)")
        #expect(said.first?.contains("its disk is full (HTTP 507)") == true, "\(refused.stderr)")
        #expect(said.first?.contains("nothing on this device was lost; try again in 60 s") == true, "\(refused.stderr)")
        #expect(said.first?.contains("Waiting for room on the server. 1 report pending.") == true, "\(refused.stderr)")
        let kept = try profile.show(later)
        #expect(kept["state"] == "PENDING")
        #expect(kept["photos"]?.arrayValue?.first?["upload_state"] == "PENDING")
        // The agent honours Retry-After: its cycle at once leaves the report waiting and asks the server nothing.
        let refusals = refusedSyncs(server)
        #expect(refusals == 1, "\(server.stderr)")
        let agent = try profile.agent(["run", "--once"])
        #expect(agent.status == 0, "\(agent.stdout) \(agent.stderr)")
        #expect(agent.stderr.contains(#""waiting":1"#), "\(agent.stderr)")
        #expect(refusedSyncs(server) == refusals)
        // A person's jqc sync sends at once (backoff is for the agent) and is refused the same way.
        let again = try profile.jqc(["sync"])
        #expect(again.status == 75, "\(again.stdout) \(again.stderr)")
        #expect(refusedSyncs(server) == refusals + 1)
        // So is the agent asked at once (jqc retry): it keeps the work, exit 75, and logs why it waits.
        #expect(try profile.jqc(["retry"]).status == 0)
        let asked = try profile.agent(["run", "--once"])
        #expect(asked.status == 75, "\(asked.stdout) \(asked.stderr)")
        #expect(asked.stderr.contains("Waiting for room on the server. 1 report pending."), "\(asked.stderr)")
        #expect(refusedSyncs(server) == refusals + 2)
        #expect(try profile.show(later)["state"] == "PENDING")
        #expect(diskFullLines(server) == 1, "the server says it once, not once a request: \(server.stderr)")

        // Reads go on: what was accepted before is served, photo bytes included.
        let report = try await me.get("/reports/\(earlierServerID)")
        #expect(report.status == 200, "\(report.status) \(report.message)")
        let photoURL = try #require(report.data["report"]?["photos"]?.arrayValue?.first?["url"]?.stringValue)
        let photo = try await me.client.send("GET", server.baseURL + photoURL, token: me.accessToken)
        #expect(photo.status == 200)
        #expect(
            Int64(photo.body.count)
                == (try profile.show(earlier)["photos"]?.arrayValue?.first?["byte_size"]?.integerValue ?? -1))
        #expect(try held(server.databasePath, later) == [0, 0])
        #expect(try integrity(server.databasePath) == "ok")

        disk.makeRoom()
        let finished = try profile.jqc(["sync"])
        #expect(
            finished.status == 0,
            "the same server process, still running, takes it: \(finished.stdout) \(finished.stderr)")
        let synced = try profile.show(later)
        #expect(synced["state"] == "SYNCED")
        #expect(synced["photos"]?.arrayValue?.first?["upload_state"] == "UPLOADED")
        #expect(try profile.show(earlier)["photos"]?.arrayValue?.first?["upload_state"] == "UPLOADED")
        #expect(try held(server.databasePath, earlier) == [1, 1])
        #expect(try held(server.databasePath, later) == [1, 1])
        #expect(try integrity(server.databasePath) == "ok")
        #expect(server.stop() == 0, "the server ends cleanly: it never crashed or hung")
        disk.unmount()
    }

    @Test(
        "a sync, a multipart photo and a resumable PATCH into a full server disk are 507 STORAGE_FULL with Retry-After 60; nothing half-stored remains; with room each goes through once"
    )
    func refusedOverHTTP() async throws {
        let (disk, server) = try serverOnSmallDisk()
        let me = try await Session.inspector(server)
        let serverID = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        let photo = PhotoContractTests.jpeg(200_000)
        let sha256 = try PhotoContractTests.sha256(photo)
        let multipartID = UUID().uuidString.lowercased()
        let fields = [("local_id", multipartID), ("field_id", "notes"), ("sha256", sha256)]
        let resumableID = UUID().uuidString.lowercased()
        let created = try await me.post(
            "/reports/\(serverID)/uploads",
            [
                "local_id": .string(resumableID), "field_id": "notes", "sha256": .string(sha256),
                "byte_size": .integer(Int64(photo.count)),
            ])
        try #require(created.status == 201, "\(created.status) \(created.message)")
        let uploadURL = try #require(created.data["upload"]?["url"]?.stringValue)
        let before = incoming(server)

        try disk.fill()
        let newReport = Reports.lobby()
        let sync = try await me.sync([newReport])
        #expect(sync.status == 507)
        #expect(sync.code == "STORAGE_FULL")
        #expect(sync.header("Retry-After") == "60")
        #expect(sync.message.contains("the server's disk is full"), "\(sync.message)")
        let multipart = try await me.client.upload(
            server.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: me.accessToken)
        #expect(multipart.status == 507, "\(multipart.status) \(multipart.message)")
        #expect(multipart.code == "STORAGE_FULL")
        #expect(multipart.header("Retry-After") == "60")
        let patch = try await UploadContractTests.patch(me, uploadURL, offset: 0, photo)
        #expect(patch.status == 507, "\(patch.status) \(patch.message)")
        #expect(patch.code == "STORAGE_FULL")
        #expect(patch.header("Retry-After") == "60")

        // Nothing half-stored: the upload holds no byte, no photo row or file, no stray body in the upload folder.
        #expect(try await UploadContractTests.head(me, uploadURL).header("Upload-Offset") == "0")
        #expect(incoming(server) == before, "the refused bodies left nothing behind")
        let listed = try await me.get("/reports/\(serverID)")
        #expect(listed.status == 200, "reads go on")
        #expect(listed.data["report"]?["photos"]?.arrayValue?.count == 0)
        let vault = PhotoVaultPath.of(server, sha256: sha256)
        #expect(!FileManager.default.fileExists(atPath: vault))
        #expect(try integrity(server.databasePath) == "ok")
        #expect(diskFullLines(server) == 1, "\(server.stderr)")

        disk.makeRoom()
        let again = try await me.sync([newReport])
        #expect(again.status == 200)
        #expect(again.data["results"]?.arrayValue?.first?["status"] == "ACCEPTED")
        let stored = try await me.client.upload(
            server.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: me.accessToken)
        #expect(stored.status == 201, "\(stored.status) \(stored.message)")
        let resumed = try await UploadContractTests.patch(me, uploadURL, offset: 0, photo)
        #expect(resumed.status == 201, "\(resumed.status) \(resumed.message)")
        let photos = try await me.get("/reports/\(serverID)").data["report"]?["photos"]?.arrayValue ?? []
        #expect(photos.count == 2)
        let download = try await me.client.send(
            "GET", server.baseURL + (try #require(resumed.data["photo"]?["url"]?.stringValue)),
            token: me.accessToken)
        #expect(download.body == photo)
        #expect(try integrity(server.databasePath) == "ok")
        #expect(server.stop() == 0)
        disk.unmount()
    }

    @Test(
        "what an operator sees: one error line in the log file however many refusals, the refusals counted in the metrics, reads answered; nothing to restart"
    )
    func operatorView() async throws {
        let disk = try SmallDisk(megabytes: 8)
        let server = try ObservedServer(["--metrics-port", "0"], database: disk.path("server.db"))
        let metricsURL = try #require(server.metricsURL)
        let client = HTTPTestClient()
        let login = try await client.send(
            "POST", server.url("/auth/login"), json: ["username": "inspector", "password": "inspector-pass"])
        let token = try #require(login.data["access_token"]?.stringValue)
        let batch: JSONValue = [
            "device_id": .string(UUID().uuidString.lowercased()), "app_version": "0.1.0", "schema_version": 1,
            "reports": [Reports.lobby()],
        ]

        try disk.fill()
        for _ in 0..<5 {
            let refused = try await client.send("POST", server.url("/reports/sync"), json: batch, token: token)
            #expect(refused.status == 507)
            #expect(refused.header("Retry-After") == "60")
        }
        #expect(try await client.send("GET", server.url("/facilities"), token: token).status == 200, "reads go on")
        let samples = ObservabilityTests.samples(
            String(decoding: try await client.send("GET", metricsURL).body, as: UTF8.self))
        #expect(samples["jqc_server_storage_full_refusals_total"] == 5)
        #expect(
            samples["jqc_server_requests_total{route=\"/api/v1/reports/sync\",method=\"POST\",status=\"507\"}"] == 5)
        let log = try String(contentsOfFile: server.logPath, encoding: .utf8).split(separator: "\n")
        let said = log.filter { $0.contains("the server's disk is full") }
        #expect(said.count == 1, "\(log.joined(separator: "\n"))")
        #expect(said.first?.contains(#""level":"error""#) == true)
        #expect(said.first?.contains("until space is freed") == true)

        disk.makeRoom()
        let taken = try await client.send("POST", server.url("/reports/sync"), json: batch, token: token)
        #expect(taken.data["results"]?.arrayValue?.first?["status"] == "ACCEPTED", "\(taken.status) \(taken.message)")
        #expect(server.stop() == 0)
        disk.unmount()
    }

    @Test(
        "a resumable PATCH whose body arrives but whose bytes then find no room in the upload is 507; the upload keeps its offset and gives the room back"
    )
    func patchWithoutRoomForItsBytes() async throws {
        let (disk, server) = try serverOnSmallDisk()
        let me = try await Session.inspector(server)
        let photo = PhotoContractTests.jpeg(1_000_000)
        let (serverID, url, _) = try await UploadContractTests.begin(me, photo)
        #expect(try await UploadContractTests.patch(me, url, offset: 0, photo.prefix(100_000)).status == 204)
        // Room for the body as it streams in, not for a second copy of it in the upload's own file.
        try disk.fill(leaving: 1_400_000)
        let refused = try await UploadContractTests.patch(me, url, offset: 100_000, photo[100_000...])
        #expect(refused.status == 507, "\(refused.status) \(refused.message)")
        #expect(refused.code == "STORAGE_FULL")
        #expect(refused.header("Retry-After") == "60")
        #expect(try await UploadContractTests.head(me, url).header("Upload-Offset") == "100000")
        #expect(
            incoming(server).values.sorted() == [100_000],
            "the upload holds what it held, nothing more: \(incoming(server))")
        #expect(disk.freeBytes >= 1_300_000, "the room is given back: \(disk.freeBytes) bytes free")
        #expect(try integrity(server.databasePath) == "ok")

        disk.makeRoom()
        let last = try await UploadContractTests.patch(me, url, offset: 100_000, photo[100_000...])
        #expect(last.status == 201, "\(last.status) \(last.message)")
        let download = try await me.client.send(
            "GET", server.baseURL + (try #require(last.data["photo"]?["url"]?.stringValue)),
            token: me.accessToken)
        #expect(download.body == photo)
        #expect(try await me.get("/reports/\(serverID)").data["report"]?["photos"]?.arrayValue?.count == 1)
        #expect(server.stop() == 0)
        disk.unmount()
    }

    @Test(
        "on PostgreSQL, a database that answers disk_full (SQLSTATE 53100, raised by a trigger standing in for a full disk) refuses the sync and the photo 507 STORAGE_FULL with Retry-After; reads go on; then both go through once"
    )
    func postgresDiskFull() async throws {
        let url = try ServerDatabases.freshPostgres()
        let server = try ServerProcess(["--demo"], database: url)
        let me = try await Session.inspector(server)
        let serverID = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        try ServerDatabases.query(
            url,
            """
            CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$;
            CREATE TRIGGER full_disk BEFORE INSERT ON reports FOR EACH ROW EXECUTE FUNCTION full_disk();
            CREATE TRIGGER full_disk BEFORE INSERT ON photo_chunks FOR EACH ROW EXECUTE FUNCTION full_disk();
            """)
        let newReport = Reports.lobby()
        let sync = try await me.sync([newReport])
        #expect(sync.status == 507, "\(sync.status) \(sync.message)")
        #expect(sync.code == "STORAGE_FULL")
        #expect(sync.header("Retry-After") == "60")
        let photo = PhotoContractTests.jpeg(30_000)
        let fields = [
            ("local_id", UUID().uuidString.lowercased()), ("field_id", "notes"),
            ("sha256", try PhotoContractTests.sha256(photo)),
        ]
        let refused = try await me.client.upload(
            server.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: me.accessToken)
        #expect(refused.status == 507, "\(refused.status) \(refused.message)")
        #expect(refused.code == "STORAGE_FULL")
        let read = try await me.get("/reports/\(serverID)")
        #expect(read.status == 200, "reads go on")
        #expect(read.data["report"]?["photos"]?.arrayValue?.count == 0)
        #expect(diskFullLines(server) == 1, "\(server.stderr)")

        try ServerDatabases.query(url, "DROP TRIGGER full_disk ON reports; DROP TRIGGER full_disk ON photo_chunks")
        let again = try await me.sync([newReport])
        #expect(again.data["results"]?.arrayValue?.first?["status"] == "ACCEPTED", "\(again.status) \(again.message)")
        let stored = try await me.client.upload(
            server.url("/reports/\(serverID)/photos"), fields: fields, file: photo, token: me.accessToken)
        #expect(stored.status == 201, "\(stored.status) \(stored.message)")
        #expect(try await me.get("/reports/\(serverID)").data["report"]?["photos"]?.arrayValue?.count == 1)
        #expect(server.stop() == 0)
    }

    @Test(
        "on PostgreSQL, a resumable upload whose last bytes arrived while the disk was full: 507 and every byte held; once there is room the same POST answers 200 with the photo, stored once"
    )
    func postgresUploadFinishedLater() async throws {
        let url = try ServerDatabases.freshPostgres()
        let server = try ServerProcess(["--demo"], database: url)
        let me = try await Session.inspector(server)
        let serverID = try #require(try await me.syncOne(Reports.lobby())["server_id"]?.stringValue)
        let photo = PhotoContractTests.jpeg(60_000)
        let sha256 = try PhotoContractTests.sha256(photo)
        let announce: JSONValue = [
            "local_id": .string(UUID().uuidString.lowercased()), "field_id": "notes", "sha256": .string(sha256),
            "byte_size": .integer(Int64(photo.count)),
        ]
        let created = try await me.post("/reports/\(serverID)/uploads", announce)
        try #require(created.status == 201, "\(created.status) \(created.message)")
        let uploadURL = try #require(created.data["upload"]?["url"]?.stringValue)
        // The photo store is full; the upload's own bytes still go in.
        try ServerDatabases.query(
            url,
            """
            CREATE FUNCTION full_disk() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$;
            CREATE TRIGGER full_disk BEFORE INSERT ON photo_chunks FOR EACH ROW EXECUTE FUNCTION full_disk();
            """)
        let last = try await UploadContractTests.patch(me, uploadURL, offset: 0, photo)
        #expect(last.status == 507, "\(last.status) \(last.message)")
        #expect(last.code == "STORAGE_FULL")
        #expect(try await UploadContractTests.head(me, uploadURL).header("Upload-Offset") == String(photo.count))
        let stillFull = try await me.post("/reports/\(serverID)/uploads", announce)
        #expect(stillFull.status == 507, "asked again while full: \(stillFull.status) \(stillFull.message)")

        try ServerDatabases.query(url, "DROP TRIGGER full_disk ON photo_chunks")
        let again = try await me.post("/reports/\(serverID)/uploads", announce)
        #expect(again.status == 200, "\(again.status) \(again.message)")
        #expect(again.data["upload"] == nil, "not an upload at its end, which a client would only ask about again")
        let photoURL = try #require(again.data["photo"]?["url"]?.stringValue)
        let download = try await me.client.send("GET", server.baseURL + photoURL, token: me.accessToken)
        #expect(download.body == photo)
        #expect(try await me.get("/reports/\(serverID)").data["report"]?["photos"]?.arrayValue?.count == 1)
        let replay = try await me.post("/reports/\(serverID)/uploads", announce)
        #expect(
            replay.status == 200 && replay.data["photo"]?["url"]?.stringValue == photoURL,
            "\(replay.status) \(replay.message)")
        #expect(server.stop() == 0)
    }
}

/// Where a SQLite server keeps a photo: `<database>.photos/<first two hex digits>/<sha256>`.
enum PhotoVaultPath {
    static func of(_ server: ServerProcess, sha256: String) -> String {
        "\(server.databasePath).photos/\(sha256.prefix(2))/\(sha256)"
    }
}
