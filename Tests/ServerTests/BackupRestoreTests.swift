import Foundation
import Models
import Testing
import TestSupport

/// Backups and restores through the real programs: a backup taken while a
/// device syncs, more reports accepted after it, the server stopped, the
/// backup restored into a fresh database given a new generation
/// (`admin new-generation`), a server started on it. Everything accepted
/// before the backup is there with its photos; the devices sync again and
/// send what the restored server lacks, each report once. On SQLite through
/// `admin backup`; under `JQC_TEST_SERVER_DATABASE=postgres` through the
/// documented `pg_dump -Fc` / `pg_restore` path.
@Suite("Backups and restores", .serialized)
struct BackupRestoreTests {
    /// A completed report of template 101 with one photo; returns its local id.
    func completedReport(_ profile: DemoProfile, photo name: String, seed: UInt32) throws -> String {
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        let added = try profile.jqc(["photo", "add", id, "--field", "14", try profile.writeJPEG(name, seed: seed)])
        try #require(added.status == 0, "photo add: \(added.stderr)")
        let completed = try profile.jqc(["complete", id])
        try #require(completed.status == 0, "complete: \(completed.stderr)")
        return id
    }

    /// Where a backup of `database` goes in `folder`: a dump for PostgreSQL, a database file for SQLite.
    func backupFile(in folder: TemporaryDirectory, of database: String) -> String {
        folder.path(database.hasPrefix("postgres://") ? "backup.dump" : "backup.db")
    }

    /// Backs up the server's database to `file`: `admin backup` for SQLite, `pg_dump -Fc` for PostgreSQL.
    func backUp(_ database: String, to file: String) throws {
        if database.hasPrefix("postgres://") {
            let (port, name) = try Self.parts(database)
            let dump = try Subprocess.run(
                try PostgresCluster.binary("pg_dump"),
                ["-Fc", "-h", "127.0.0.1", "-p", port, "-U", "jqc", "-d", name, "-f", file],
                environment: ["PGPASSWORD": "jqc-test"])
            try #require(dump.status == 0, "pg_dump: \(dump.stderr)")
        } else {
            let backup = try Programs.run("jqc-server", ["admin", "backup", "--db", database, "-o", file])
            try #require(backup.status == 0, "admin backup: \(backup.stderr)")
            #expect(backup.stdout.contains("backed up to"), "\(backup.stdout)")
        }
    }

    /// Restores `file` into a fresh database and gives it a new generation; returns where it is.
    func restore(_ file: String, like database: String, into folder: TemporaryDirectory) throws -> String {
        let fresh: String
        if database.hasPrefix("postgres://") {
            fresh = try ServerDatabases.freshPostgres()
            let (port, name) = try Self.parts(fresh)
            let restored = try Subprocess.run(
                try PostgresCluster.binary("pg_restore"),
                ["--no-owner", "-h", "127.0.0.1", "-p", port, "-U", "jqc", "-d", name, file],
                environment: ["PGPASSWORD": "jqc-test"])
            try #require(restored.status == 0, "pg_restore: \(restored.stderr)")
        } else {
            // As docs/deploy.md says: the file and its photo folder copied into place.
            fresh = folder.path("restored.db")
            try FileManager.default.copyItem(atPath: file, toPath: fresh)
            try FileManager.default.copyItem(atPath: file + ".photos", toPath: fresh + ".photos")
        }
        let generation = try Programs.run("jqc-server", ["admin", "new-generation", "--db", fresh, "--json"])
        try #require(generation.status == 0, "new-generation: \(generation.stderr)")
        #expect(generation.stdout.contains("\"server_generation\""), "\(generation.stdout)")
        return fresh
    }

    static func parts(_ url: String) throws -> (port: String, database: String) {
        let tail = try #require(url.split(separator: "@").last)
        let port = try #require(tail.split(separator: ":").last?.split(separator: "/").first)
        let name = try #require(tail.split(separator: "/").last)
        return (String(port), String(name))
    }

    /// How many reports the server's database holds with this local id.
    func copies(_ database: String, _ localID: String) throws -> Int {
        Int(
            try ServerDatabases.query(
                database, "SELECT count(*) FROM reports WHERE lower(local_id) = '\(localID.lowercased())'")) ?? -1
    }

    /// The report's photos as the server lists them, each downloaded and hashed.
    func serverPhotoHashes(_ server: ServerProcess, serverID: String, token: String) async throws -> [String] {
        let client = HTTPTestClient()
        var hashes: [String] = []
        for photo in try await serverReport(server, serverID, token: token)?["photos"]?.arrayValue ?? [] {
            let localID = try #require(photo["local_id"]?.stringValue)
            let bytes = try await client.send("GET", server.url("/reports/\(serverID)/photos/\(localID)"), token: token)
            #expect(bytes.status == 200)
            hashes.append(try PhotoContractTests.sha256(bytes.body))
        }
        return hashes
    }

    /// The report as the server holds it, or nil when it has none by this id.
    func serverReport(_ server: ServerProcess, _ serverID: String, token: String) async throws -> JSONValue? {
        let report = try await HTTPTestClient().send("GET", server.url("/reports/\(serverID)"), token: token)
        return report.status == 200 ? report.data["report"] : nil
    }

    /// Whether the server holds a report's photos, at least one, byte for byte as the device lists them.
    func photosMatch(_ profile: DemoProfile, _ id: String, on server: ServerProcess, token: String) async throws -> Bool
    {
        let shown = try profile.show(id)
        let serverID = try #require(shown["server_id"]?.stringValue)
        let hashes = try await serverPhotoHashes(server, serverID: serverID, token: token)
        return !hashes.isEmpty && hashes == (shown["photos"]?.arrayValue ?? []).compactMap { $0["sha256"]?.stringValue }
    }

    /// Amends a report: field 2 changed, signed again, completed.
    func amend(_ profile: DemoProfile, _ id: String, answer: String) throws {
        try #require(try profile.jqc(["amend", id]).status == 0)
        try #require(try profile.jqc(["answer", id, "2", answer]).status == 0)
        try profile.sign(id)
        try #require(try profile.jqc(["complete", id]).status == 0)
    }

    func supervisorToken(_ server: ServerProcess) async throws -> String {
        let login = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"), json: ["username": "supervisor", "password": "supervisor-pass"])
        return try #require(login.data["access_token"]?.stringValue)
    }

    @Test(
        "a backup taken while a device syncs, restored with a new generation: what it held is there with its photos, and the devices send again what was accepted after it, each report once"
    )
    func restoredServerGetsEveryReportOnce() async throws {
        let folder = TemporaryDirectory(prefix: "jqc-backup")
        var server = try ServerProcess(["--demo"])
        let database = server.databasePath
        let first = try DemoProfile.signedIn(to: server.baseURL)
        let second = try DemoProfile.signedIn(to: server.baseURL)
        let third = try DemoProfile.signedIn(to: server.baseURL)

        // Before the backup: the first device's reports are accepted with their photos.
        let early = [
            try completedReport(first, photo: "e1.jpg", seed: 11),
            try completedReport(first, photo: "e2.jpg", seed: 12),
        ]
        try #require(try first.jqc(["sync"]).status == 0)

        // The backup is taken while the second device syncs.
        var during: [String] = []
        for seed in UInt32(21)...24 { during.append(try completedReport(second, photo: "d\(seed).jpg", seed: seed)) }
        let file = backupFile(in: folder, of: database)
        async let syncing = OwnThread.run { try second.jqc(["sync"]) }
        try backUp(database, to: file)
        let synced = try await syncing
        try #require(synced.status == 0, "\(synced.stdout)\(synced.stderr)")

        // After the backup: more reports accepted, on both devices, and an amendment of one the backup holds.
        let late = [
            try completedReport(first, photo: "l1.jpg", seed: 31),
            try completedReport(first, photo: "l2.jpg", seed: 32),
        ]
        let amended = early[0]
        try amend(first, amended, answer: "2")
        let twice = early[1]
        try amend(first, twice, answer: "3")
        try #require(try first.jqc(["sync"]).status == 0)
        try #require(try first.show(amended)["base_revision"] == 2)
        try #require(try first.show(twice)["base_revision"] == 2)
        let secondLate = try completedReport(second, photo: "l3.jpg", seed: 33)
        try #require(try second.jqc(["sync"]).status == 0)
        let thirdLate = try completedReport(third, photo: "l4.jpg", seed: 34)
        try #require(try third.jqc(["sync"]).status == 0)
        var lateServerIDs: [String] = []
        for id in late { lateServerIDs.append(try #require(try first.show(id)["server_id"]?.stringValue)) }
        #expect(server.stop() == 0)
        // While the server is down, the device amends a report again: PENDING on revision 2, which the backup lacks.
        try amend(first, twice, answer: "1")

        let fresh = try restore(file, like: database, into: folder)
        server = try ServerProcess(["--demo"], database: fresh)
        let token = try await supervisorToken(server)
        // Every report accepted before the backup is there, with its photo byte for byte.
        for id in early {
            #expect(try copies(fresh, id) == 1)
            #expect(try await photosMatch(first, id, on: server, token: token), "report \(id)")
        }
        // Those accepted after it are not, nor the amendment.
        for id in late { #expect(try copies(fresh, id) == 0) }
        let amendedServerID = try #require(try first.show(amended)["server_id"]?.stringValue)
        #expect(try await serverReport(server, amendedServerID, token: token)?["revision"] == 1)

        // The devices sync again: the first sends its two late reports and its two amendments, and says so.
        try first.route(to: server.baseURL)
        try second.route(to: server.baseURL)
        try third.route(to: server.baseURL)
        let (firstStatus, firstSync) = try first.document(["sync"])
        #expect(firstStatus == 0, "\(firstSync)")
        #expect(firstSync["server_restored"]?["reports_sent_again"] == 4, "\(firstSync)")
        #expect(firstSync["accepted"] == 4)
        #expect(
            firstSync["rejected"] == [],
            "the amendment waiting to go is not refused as ahead of the server: \(firstSync)")
        let text = try third.jqc(["sync"])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("The server was restored from a backup: 1 report sent again."), "\(text.stdout)")
        // The agent logs it.
        let agent = try second.agent(["run", "--once"])
        #expect(agent.status == 0, "\(agent.stderr)")
        #expect(
            agent.stderr.contains("\"server_restored\"")
                && agent.stderr.contains("The server was restored from a backup:"), "\(agent.stderr)")

        // Each report once on the server, every photo byte for byte, every report SYNCED on its device.
        for (profile, ids) in [(first, early + late), (second, during + [secondLate]), (third, [thirdLate])] {
            for id in ids {
                #expect(try copies(fresh, id) == 1, "report \(id) is held exactly once")
                #expect(try profile.show(id)["state"] == "SYNCED", "report \(id)")
                #expect(try await photosMatch(profile, id, on: server, token: token), "report \(id)")
            }
        }
        // The amendment is the server's revision 2 again, with the device's answer.
        let held = try await serverReport(server, amendedServerID, token: token)
        #expect(held?["revision"] == 2)
        #expect(held?["payload"]?["answers"]?["2"] == 2)
        #expect(try first.show(amended)["server_id"]?.stringValue == amendedServerID)
        // The amendment made while the server was down is revision 2 of the restored server, with its answer.
        let twiceServerID = try #require(try first.show(twice)["server_id"]?.stringValue)
        let second2 = try await serverReport(server, twiceServerID, token: token)
        #expect(second2?["revision"] == 2)
        #expect(second2?["payload"]?["answers"]?["2"] == 1)
        // The late reports were sent as new uploads: new server ids.
        for (id, old) in zip(late, lateServerIDs) { #expect(try first.show(id)["server_id"]?.stringValue != old) }
        // A second sync has nothing to send again.
        let (_, again) = try first.document(["sync"])
        #expect(again["server_restored"] == .null, "\(again)")
        #expect(again["accepted"] == 0)
    }

    @Test(
        "a restored server on a network that drops one connection in seven: the devices' check of every report goes on from where each cycle stopped, and each report lost is sent again once"
    )
    func checkGoesOnAcrossCycles() async throws {
        let folder = TemporaryDirectory(prefix: "jqc-backup")
        var server = try ServerProcess(["--demo"])
        let database = server.databasePath
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        try #require(try profile.jqc(["sync"]).status == 0, "the device learns the server's generation")
        // The backup holds none of the reports that follow.
        let file = backupFile(in: folder, of: database)
        try backUp(database, to: file)
        var ids: [String] = []
        for glass in 0..<48 {
            let id = try profile.start(["--template", "lobby-walk", "--facility", "F-100", "--area", "A-102"])
            try #require(try profile.jqc(["answer", id, "entrance", "pass"]).status == 0)
            try #require(try profile.jqc(["answer", id, "glass", String(glass % 5 + 1)]).status == 0)
            try #require(try profile.jqc(["complete", id]).status == 0)
            ids.append(id)
        }
        try #require(try profile.jqc(["sync"]).status == 0)
        #expect(server.stop() == 0)

        // Restored, the server drops about one connection in seven unanswered: 48 checks in a row
        // would almost never all pass in one cycle.
        let fresh = try restore(file, like: database, into: folder)
        server = try ServerProcess(["--demo", "--fault-drop", "0.15", "--seed", "5"], database: fresh)
        try profile.route(to: server.baseURL)
        var cycles = 0
        while cycles < 120,
            try ids.contains(where: { try copies(fresh, $0) != 1 }) || (try profile.show(ids[47])["state"]) != "SYNCED"
        {
            cycles += 1
            _ = try profile.jqc(["retry"])
            let agent = try profile.agent(["run", "--once"])
            #expect([0, 75].contains(agent.status), "\(agent.stderr)")
        }
        for id in ids {
            #expect(try copies(fresh, id) == 1, "\(id) on the restored server once")
            #expect(try profile.show(id)["state"] == "SYNCED")
        }
        #expect(cycles < 120, "the check ended within \(cycles) cycles")
        #expect(server.stop() == 0)
    }

    @Test(
        "a restored server that answers 503 now and then while the device checks it: amendments on a revision it lost wait for the check to end, then go on top of the revision it holds, never REJECTED"
    )
    func amendmentsWaitForAnUnfinishedCheck() async throws {
        let folder = TemporaryDirectory(prefix: "jqc-backup")
        var server = try ServerProcess(["--demo"])
        let database = server.databasePath
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        var ids: [String] = []
        for _ in 0..<10 {
            let id = try profile.start(["--template", "lobby-walk", "--facility", "F-100", "--area", "A-102"])
            try #require(try profile.jqc(["answer", id, "entrance", "pass"]).status == 0)
            try #require(try profile.jqc(["answer", id, "glass", "1"]).status == 0)
            try #require(try profile.jqc(["complete", id]).status == 0)
            ids.append(id)
        }
        try #require(try profile.jqc(["sync"]).status == 0)
        // The backup holds revision 1 of each report.
        let file = backupFile(in: folder, of: database)
        try backUp(database, to: file)
        func amend(_ id: String, glass: Int) throws {
            try #require(try profile.jqc(["amend", id]).status == 0)
            try #require(try profile.jqc(["answer", id, "glass", String(glass)]).status == 0)
            try #require(try profile.jqc(["complete", id]).status == 0)
        }
        for id in ids { try amend(id, glass: 2) }
        try #require(try profile.jqc(["sync"]).status == 0)
        #expect(server.stop() == 0)
        // Each report amended again while the server is down: PENDING on revision 2, which the backup lacks.
        for id in ids {
            try amend(id, glass: 3)
            try #require(try profile.show(id)["base_revision"] == 2)
        }

        // Restored, the server answers about three requests in ten 503: ten checks in a row
        // seldom all pass in one cycle.
        let fresh = try restore(file, like: database, into: folder)
        server = try ServerProcess(["--demo", "--fault-rate", "0.3", "--seed", "11"], database: fresh)
        try profile.route(to: server.baseURL)
        var cycles = 0
        while cycles < 120, try ids.contains(where: { try profile.show($0)["state"] == "PENDING" }) {
            cycles += 1
            _ = try profile.jqc(["retry"])
            let agent = try profile.agent(["run", "--once"])
            #expect([0, 75].contains(agent.status), "\(agent.stderr)")
        }
        #expect(cycles < 120, "the check ended within \(cycles) cycles")
        #expect(server.stop() == 0)
        // Every amendment is revision 2 of the restored server, with the device's last answer.
        for id in ids {
            let shown = try profile.show(id)
            #expect(
                shown["state"] == "SYNCED", "\(id) is \(shown["state"] ?? .null), not refused as ahead of the server")
            #expect(try copies(fresh, id) == 1, "\(id) on the restored server once")
            let revision = try ServerDatabases.query(
                fresh,
                "SELECT current_revision FROM reports WHERE lower(local_id) = '\(id.lowercased())'")
            #expect(revision == "2", "\(id) is at revision \(revision)")
        }
        server = try ServerProcess(["--demo"], database: fresh)
        let token = try await supervisorToken(server)
        for id in ids {
            let serverID = try #require(try profile.show(id)["server_id"]?.stringValue)
            #expect(try await serverReport(server, serverID, token: token)?["payload"]?["answers"]?["glass"] == 3)
        }
        #expect(server.stop() == 0)
    }

    @Test(
        "admin backup refuses an existing file, PostgreSQL's with one line naming pg_dump; admin restore makes a new database with a new generation"
    )
    func backupCommands() throws {
        let folder = TemporaryDirectory(prefix: "jqc-backup")
        let server = try ServerProcess(["--demo"])
        let file = folder.path("backup.db")
        if server.databasePath.hasPrefix("postgres://") {
            let refused = try Programs.run("jqc-server", ["admin", "backup", "--db", server.databasePath, "-o", file])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("pg_dump"), "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: file))
            return
        }
        let missing = try Programs.run(
            "jqc-server", ["admin", "backup", "--db", folder.path("none.db"), "-o", folder.path("none-backup.db")])
        #expect(missing.status == 3 && missing.stderr.contains("no database"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("none.db")), "a missing database is not made")
        try backUp(server.databasePath, to: file)
        let again = try Programs.run("jqc-server", ["admin", "backup", "--db", server.databasePath, "-o", file])
        #expect(again.status == 7, "\(again.stderr)")
        #expect(again.stderr.contains("already exists"), "\(again.stderr)")
        let before = try ServerDatabases.query(
            server.databasePath, "SELECT value FROM settings WHERE key = 'server_generation'")

        let restoredPath = folder.path("restored.db")
        let restored = try Programs.run("jqc-server", ["admin", "restore", file, "--db", restoredPath])
        #expect(restored.status == 0, "\(restored.stderr)")
        let after = try ServerDatabases.query(
            restoredPath, "SELECT value FROM settings WHERE key = 'server_generation'")
        #expect(!after.isEmpty && after != before, "a new generation: \(before) -> \(after)")
        let events = try Programs.run("jqc-server", ["admin", "events", "--db", restoredPath])
        #expect(events.stdout.contains("server.new-generation"), "\(events.stdout)")
        let onto = try Programs.run("jqc-server", ["admin", "restore", file, "--db", restoredPath])
        #expect(onto.status == 7, "an existing database is never overwritten: \(onto.stderr)")
    }
}
