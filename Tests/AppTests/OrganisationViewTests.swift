import Foundation
import Models
import Testing
import TestSupport

/// What supervisors and inspectors see of the organisation's work on the
/// device, through the real programs: `jqc assignments` (overdue, done,
/// names), `jqc history` filtered on the server, and `jqc show` / `jqc
/// export` of a report the device does not hold, read from a real
/// `jqc-server --demo` on loopback.
@Suite("Assignments, history filters and reports read from the server")
struct OrganisationViewTests {
    /// A completed (PENDING) report of template 101 at `facility`, with an optional photo.
    func washroom(_ profile: DemoProfile, facility: String = "F-100", photo: String? = nil) throws -> String {
        let id = try profile.start(["--template", "101", "--facility", facility])
        for (field, value) in [("2", "4"), ("3", "4"), ("4", "pass"), ("6", "Good")] {
            let outcome = try profile.jqc(["answer", id, field, value])
            try #require(outcome.status == 0, "answer \(field): \(outcome.stderr)")
        }
        if let photo {
            let added = try profile.jqc(["photo", "add", id, photo])
            try #require(added.status == 0, "photo add: \(added.stderr)")
        }
        try profile.sign(id)
        let complete = try profile.jqc(["complete", id])
        try #require(complete.status == 0, "complete: \(complete.stderr)")
        return id
    }

    /// A completed (PENDING) lobby walkthrough at F-100.
    func lobby(_ profile: DemoProfile) throws -> String {
        let id = try profile.start(["--template", "lobby-walk", "--facility", "F-100"])
        for (field, value) in [("entrance", "pass"), ("glass", "4")] {
            let outcome = try profile.jqc(["answer", id, field, value])
            try #require(outcome.status == 0, "answer \(field): \(outcome.stderr)")
        }
        let complete = try profile.jqc(["complete", id])
        try #require(complete.status == 0, "complete: \(complete.stderr)")
        return id
    }

    func sync(_ profile: DemoProfile) throws {
        let sync = try profile.jqc(["sync"])
        try #require(sync.status == 0, "sync: \(sync.stdout)\(sync.stderr)")
    }

    func serverID(_ profile: DemoProfile, _ localID: String) throws -> String {
        try #require(try profile.show(localID)["server_id"]?.stringValue)
    }

    // MARK: - assignments

    @Test("assignments puts the overdue AS-1 first, marks closed and completed ones done, and shows names, not ids")
    func assignmentsOverdueDoneNames() throws {
        let server = try ServerProcess(["--demo"])
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        try sync(profile)

        let first = try profile.document(["assignments"])
        #expect(first.status == 0)
        let list = try #require(first.value["assignments"]?.arrayValue)
        #expect(list.first?["id"] == "AS-1", "overdue first: \(list.map { $0["id"] ?? .null })")
        let overdue = try #require(list.first { $0["id"] == "AS-1" })
        #expect(overdue["overdue"] == true && overdue["done"] == false)
        #expect(overdue["template_name"] == "Washroom QC")
        #expect(overdue["facility_name"] == "Harbourview Office Tower")
        #expect(overdue["area_name"] == "Ground floor washrooms")
        #expect(overdue["status"] == "open" && overdue["template_id"] == "101" && overdue["due_at"]?.stringValue != nil)
        #expect(list.filter { $0["overdue"] == true }.count == 1, "only AS-1 is overdue")
        // After the overdue one, by due date.
        let dues = list.dropFirst().compactMap { $0["due_at"]?.stringValue }.compactMap(RFC3339.date)
        #expect(dues == dues.sorted() && dues.count == list.count - 1)

        let human = try profile.jqc(["assignments"])
        #expect(human.status == 0)
        let rows = human.stdout.split(separator: "\n").map(String.init)
        #expect(rows.count > 1 && rows[1].hasPrefix("AS-1") && rows[1].contains("OVERDUE"), "\(human.stdout)")
        #expect(
            rows[1].contains("Washroom QC") && rows[1].contains("Harbourview Office Tower")
                && rows[1].contains("Ground floor washrooms"))
        #expect(human.stdout.contains("1 overdue."))

        // The server's AS-5 is closed (and past its date); a facility's name from the
        // server with a terminal escape in it; a template and facility not cached.
        let closedDue = RFC3339.string(Date().addingTimeInterval(-3 * 86_400))
        let facilities = profile.path("facilities.json")
        try
            #"{"facilities": [{"id": "F-666", "name": "Evil\u001b[2J Tower", "address": "x", "project_name": "y"}], "areas": []}"#
            .write(toFile: facilities, atomically: true, encoding: .utf8)
        #expect(try profile.jqc(["facilities", "import", facilities]).status == 0)
        let assignments = profile.path("assignments.json")
        try """
        {"assignments": [
          {"id": "AS-5", "template_id": "101", "facility_id": "F-300", "area_id": "A-302", "due_at": "\(closedDue)", "status": "closed"},
          {"id": "AS-8", "template_id": "T-UNCACHED", "facility_id": "F-666", "due_at": "2099-01-01T00:00:00Z", "status": "open"},
          {"id": "AS-9", "template_id": "101", "facility_id": "F-NOWHERE", "area_id": "A-NOWHERE", "status": "open"}
        ], "cursor": "x"}
        """.write(toFile: assignments, atomically: true, encoding: .utf8)
        let imported = try profile.jqc(["assignments", "import", assignments])
        try #require(imported.status == 0, "import: \(imported.stderr)")

        // A report completed on this device for AS-2 makes it done.
        let started = try profile.start(["--assignment", "AS-2"])
        for (field, value) in [("entrance", "pass"), ("glass", "4")] {
            #expect(try profile.jqc(["answer", started, field, value]).status == 0)
        }
        #expect(try profile.jqc(["complete", started]).status == 0)

        let after = try #require(try profile.document(["assignments"]).value["assignments"]?.arrayValue)
        func line(_ id: String) -> JSONValue? { after.first { $0["id"]?.stringValue == id } }
        #expect(
            line("AS-5")?["done"] == true && line("AS-5")?["overdue"] == false,
            "closed on the server: done, never overdue")
        #expect(
            line("AS-5")?["facility_name"] == "Northgate Distribution Hub" && line("AS-5")?["area_name"] == "Break room"
        )
        #expect(line("AS-2")?["done"] == true && line("AS-2")?["report_local_id"]?.stringValue == started)
        #expect(line("AS-8")?["template_name"] == "T-UNCACHED", "an id not cached is shown as it is")
        #expect(line("AS-9")?["facility_name"] == "F-NOWHERE" && line("AS-9")?["area_name"] == "A-NOWHERE")
        #expect(line("AS-3")?["done"] == false)
        #expect(after.first?["id"] == "AS-1")
        #expect(after.last?["id"] == "AS-9", "no due date sorts last")

        let shown = try profile.jqc(["assignments"])
        #expect(shown.status == 0)
        #expect(!shown.stdout.contains("\u{1B}"), "a name's escape never reaches the terminal: \(shown.stdout)")
        #expect(shown.stdout.contains("Evil[2J Tower"))
        let as2 = try #require(shown.stdout.split(separator: "\n").first { $0.hasPrefix("AS-2") })
        #expect(as2.contains("done") && as2.contains(String(started.prefix(8))) && as2.contains("PENDING"), "\(as2)")
        let as5 = try #require(shown.stdout.split(separator: "\n").first { $0.hasPrefix("AS-5") })
        #expect(as5.contains("done") && !as5.contains("OVERDUE"), "\(as5)")
        _ = server.stop()
    }

    // MARK: - history filters

    @Test("history --facility, --template, --inspector, --from and --to show only the matching reports")
    func historyFilters() throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try DemoProfile.signedIn(to: server.baseURL)
        let here = try washroom(inspector)
        let there = try washroom(inspector, facility: "F-200")
        let walk = try lobby(inspector)
        try sync(inspector)
        let (hereID, thereID, walkID) = (
            try serverID(inspector, here), try serverID(inspector, there), try serverID(inspector, walk)
        )
        let inspectorID = try #require(try inspector.document(["whoami"]).value["user"]?["id"]?.stringValue)

        func shown(_ profile: DemoProfile, _ options: [String]) throws -> Set<String> {
            let page = try profile.document(["history"] + options)
            #expect(page.status == 0, "\(options)")
            return Set(page.value["items"]?.arrayValue?.compactMap { $0["server_id"]?.stringValue } ?? [])
        }
        #expect(try shown(inspector, []) == [hereID, thereID, walkID])
        #expect(try shown(inspector, ["--facility", "F-200"]) == [thereID])
        #expect(try shown(inspector, ["--template", "lobby-walk"]) == [walkID])
        #expect(try shown(inspector, ["--facility", "F-100", "--template", "101"]) == [hereID])
        let yesterday = RFC3339.day(Date().addingTimeInterval(-86_400))
        #expect(
            try shown(inspector, ["--from", yesterday]) == [hereID, thereID, walkID],
            "a plain date: from its first second")
        #expect(try shown(inspector, ["--to", yesterday]).isEmpty, "a plain date: to its last second")
        let hourAgo = RFC3339.string(Date().addingTimeInterval(-3600))
        #expect(try shown(inspector, ["--from", hourAgo, "--facility", "F-200"]) == [thereID])

        let none = try inspector.jqc(["history", "--to", "2001-01-01"])
        #expect(none.status == 0)
        #expect(none.stdout.contains("No completed inspections on the server match these filters."), "\(none.stdout)")
        let table = try inspector.jqc(["history", "--template", "lobby-walk"])
        #expect(table.stdout.contains("Lobby walkthrough") && !table.stdout.contains("Washroom QC"), "\(table.stdout)")

        for bad in [["--from", "2026-13-01"], ["--to", "yesterday"], ["--from", "2026-03-02", "--to", "2026-03-01"]] {
            let outcome = try inspector.jqc(["history"] + bad)
            #expect(outcome.status == 2, "\(bad): \(outcome.stderr)")
            #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
        }

        // A supervisor narrows everyone's to one inspector; an inspector naming someone else sees nothing.
        let supervisor = try DemoProfile.signedIn(to: server.baseURL, as: "supervisor")
        let supervisorID = try #require(try supervisor.document(["whoami"]).value["user"]?["id"]?.stringValue)
        #expect(try shown(supervisor, ["--inspector", inspectorID]) == [hereID, thereID, walkID])
        #expect(try shown(supervisor, ["--inspector", inspectorID, "--facility", "F-200"]) == [thereID])
        #expect(try shown(supervisor, ["--inspector", supervisorID]).isEmpty)
        #expect(try shown(inspector, ["--inspector", supervisorID]).isEmpty)
        _ = server.stop()
    }

    // MARK: - show and export of a report the device does not hold

    @Test(
        "a supervisor's fresh profile shows, saves the photos of, and exports a report the inspector synced; nothing is stored"
    )
    func showServerReport() throws {
        let server = try ServerProcess(["--demo"])
        let inspector = try DemoProfile.signedIn(to: server.baseURL)
        let local = try washroom(inspector, photo: try inspector.writeJPEG("tiles.jpg", seed: 7))
        try sync(inspector)
        let id = try serverID(inspector, local)
        let mine = try inspector.show(local)
        let photo = try #require(mine["photos"]?[0])
        let photoID = try #require(photo["local_id"]?.stringValue)
        let stored = try #require(try inspector.photoFolderContents().first { $0.lowercased() == photoID + ".jpg" })
        let attached = try Data(
            contentsOf: URL(fileURLWithPath: (inspector.photosFolder as NSString).appendingPathComponent(stored)))

        let supervisor = try DemoProfile.signedIn(to: server.baseURL, as: "supervisor")
        let human = try supervisor.jqc(["show", id])
        #expect(human.status == 0, "\(human.stderr)")
        #expect(human.stdout.contains("Read from the server") && human.stdout.contains(id), "\(human.stdout)")
        #expect(
            human.stdout.contains("Washroom QC") && human.stdout.contains("[2] Floors:"),
            "field labels from the cached template")
        #expect(human.stdout.contains("Score: ") && human.stdout.contains("Photos: 1"))
        #expect(human.stdout.contains(String(photoID.prefix(8))))

        let json = try supervisor.document(["show", id])
        #expect(json.status == 0)
        #expect(json.value["source"] == "server")
        #expect(json.value["local_id"]?.stringValue == local && json.value["server_id"]?.stringValue == id)
        #expect(json.value["answers"] == mine["answers"])
        #expect(json.value["template_name"] == "Washroom QC" && json.value["state"] == "SYNCED")
        #expect(json.value["score_breakdown"]?["ratio"] == mine["score_breakdown"]?["ratio"])
        #expect(json.value["photos"]?[0]?["local_id"]?.stringValue == photoID)
        #expect(json.value["photos"]?[0]?["sha256"] == photo["sha256"])
        // The same shape as a local report's, plus where it came from.
        let localKeys = Set(mine.objectValue?.keys.map { $0 } ?? [])
        let serverKeys = Set(json.value.objectValue?.keys.map { $0 } ?? [])
        #expect(localKeys.isSubset(of: serverKeys), "missing: \(localKeys.subtracting(serverKeys))")

        let folder = supervisor.path("from-server")
        let saved = try supervisor.jqc(["show", id, "--photos", folder])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stdout.contains("Saved 1 photo to \(folder)."))
        let savedFile = (folder as NSString).appendingPathComponent(photoID + ".jpg")
        #expect(try Data(contentsOf: URL(fileURLWithPath: savedFile)) == attached, "the bytes the inspector attached")
        let mode = try #require(
            try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o700)
        let notFolder = supervisor.path("a-file")
        try Data("x".utf8).write(to: URL(fileURLWithPath: notFolder))
        let refused = try supervisor.jqc(["show", id, "--photos", notFolder])
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("is not a folder"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: notFolder, encoding: .utf8) == "x")

        let html = supervisor.path("report.html")
        let exported = try supervisor.jqc(["export", id, "--format", "html", "-o", html])
        #expect(exported.status == 0, "\(exported.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("Washroom QC") && page.contains(id))
        #expect(page.contains("data:image/jpeg;base64," + attached.base64EncodedString()), "the photo embedded")
        let csv = supervisor.path("report.csv")
        #expect(try supervisor.jqc(["export", id, "--format", "csv", "-o", csv]).status == 0)
        let rows = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(rows.contains(id) && rows.contains("Floors") && rows.contains("Harbourview Office Tower"))
        let exportedJSON = try supervisor.document(["export", id, "--format", "json"])
        #expect(exportedJSON.value["source"] == "server" && exportedJSON.value["answers"] == mine["answers"])

        // Nothing fetched went into the supervisor's store.
        #expect(try supervisor.document(["list"]).value["total"] == 0)
        #expect(try supervisor.document(["status"]).value["pending"] == 0)
        // The inspector's own device shows its own copy for the server id, and saves its photos the same way.
        let own = try inspector.document(["show", id])
        #expect(own.status == 0 && own.value["source"] == nil && own.value["local_id"]?.stringValue == local)
        let ownFolder = inspector.path("own-photos")
        #expect(try inspector.jqc(["show", local, "--photos", ownFolder]).status == 0)
        let ownCopy = (ownFolder as NSString).appendingPathComponent(photoID + ".jpg")
        #expect(try Data(contentsOf: URL(fileURLWithPath: ownCopy)) == attached)
        _ = server.stop()
    }

    @Test(
        "show SERVER_ID offline exits 75 in one line; an id the server does not have, or another inspector's, exits 3; signed out it is not found here"
    )
    func showServerReportFailures() throws {
        let server = try ServerProcess(["--demo"]) { db in
            _ = try Programs.run("jqc-server", ["admin", "add-user", "other", "--db", db], stdin: "other-pass\n")
        }
        let supervisor = try DemoProfile.signedIn(to: server.baseURL, as: "supervisor")
        let unknown = "R-000000000000000000000000"
        let missing = try supervisor.jqc(["show", unknown])
        #expect(missing.status == 3)
        #expect(missing.stderr == "jqc: No report '\(unknown)' on this device or on the server.\n")

        // Another inspector's report answers like one that does not exist.
        let inspector = try DemoProfile.signedIn(to: server.baseURL)
        let local = try washroom(inspector)
        try sync(inspector)
        let id = try serverID(inspector, local)
        let other = try DemoProfile.signedIn(to: server.baseURL, as: "other")
        let forbidden = try other.jqc(["show", id])
        #expect(forbidden.status == 3)
        #expect(forbidden.stderr == "jqc: No report '\(id)' on this device or on the server.\n")
        #expect(
            try supervisor.document(["export", unknown, "--format", "json"]).value["error"]?["code"] == "NOT_FOUND")

        _ = server.stop()
        let offline = try supervisor.jqc(["show", unknown])
        #expect(offline.status == 75)
        #expect(offline.stderr.split(separator: "\n").count == 1)
        #expect(offline.stderr.contains("needs a connection"), "\(offline.stderr)")
        #expect(try supervisor.document(["show", unknown]).value["error"]?["code"] == "SERVER_REPORT_REQUIRES_NETWORK")
        let export = try supervisor.jqc(["export", unknown, "--format", "html", "-o", supervisor.path("x.html")])
        #expect(export.status == 75)
        #expect(!FileManager.default.fileExists(atPath: supervisor.path("x.html")))

        let signedOut = try DemoProfile()
        let here = try signedOut.jqc(["show", unknown])
        #expect(here.status == 3)
        #expect(here.stderr.contains("on this device"), "\(here.stderr)")
    }
}
