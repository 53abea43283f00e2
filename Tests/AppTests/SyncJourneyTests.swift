import Foundation
import Models
import Testing
import TestSupport

/// The real `jqc` against a real `jqc-server --demo` on loopback: sign-in,
/// sync, offline, a bad report among good ones, conflicts, version gating,
/// photos after acceptance.
@Suite("Sync against the reference server")
struct SyncJourneyTests {
    /// The demo server most tests share.
    static let demo: Result<ServerProcess, any Error> = Result { try ServerProcess(["--demo"]) }

    /// A demo profile signed in to `server`.
    func signedIn(to server: ServerProcess) throws -> DemoProfile { try DemoProfile.signedIn(to: server.baseURL) }

    /// A completed (PENDING) Washroom QC report.
    func pendingReport(_ profile: DemoProfile) throws -> String {
        let id = try profile.startDraft()
        try profile.answerRequired(id)
        let complete = try profile.jqc(["complete", id])
        try #require(complete.status == 0, "complete: \(complete.stderr)")
        return id
    }

    func state(_ profile: DemoProfile, _ id: String) throws -> String? {
        try profile.show(id)["state"]?.stringValue
    }

    @Test("login, whoami, logout: wrong password exits 6, credentials 0600, no token ever printed, reports kept")
    func account() throws {
        let server = try Self.demo.get()
        let profile = try DemoProfile()
        let wrong = try profile.jqc(
            ["login", "--server", server.baseURL, "--username", "inspector", "--password-stdin"], stdin: "nope\n")
        #expect(wrong.status == 6)
        #expect(wrong.stderr.split(separator: "\n").count == 1, "one line: \(wrong.stderr)")

        let draft = try profile.startDraft()
        let outcome = try profile.jqc(
            ["login", "--server", server.baseURL, "--username", "inspector", "--password-stdin", "--json"],
            stdin: "inspector-pass\n")
        #expect(outcome.status == 0)
        let document = try JSONValue.parse(Data(outcome.stdout.utf8))
        #expect(document["user"]?["username"] == "inspector")
        #expect(document["server"]?.stringValue == server.baseURL)
        #expect(document["access_token"] == nil && document["user"]?["access_token"] == nil)

        let file = profile.directory.path("credentials.json")
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let saved = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: file)))
        let tokens = [saved["access_token"]?.stringValue, saved["refresh_token"]?.stringValue].compactMap { $0 }
        #expect(tokens.count == 2)

        var outputs = [outcome]
        outputs.append(try profile.jqc(["whoami"]))
        outputs.append(try profile.jqc(["whoami", "--json"]))
        outputs.append(try profile.jqc(["sync"]))
        outputs.append(try profile.jqc(["sync", "--json"]))
        outputs.append(try profile.jqc(["status", "--json"]))
        #expect(outputs[1].stdout.contains("inspector"))
        // Username and role are both "inspector": said once, and said what it is.
        #expect(
            outputs[1].stdout == "Ivy Inspector (username and role: inspector) on \(server.baseURL)\n",
            "\(outputs[1].stdout)")
        let rollup = try profile.jqc(["rollup"])
        #expect(rollup.status == 5)
        #expect(
            rollup.stderr.contains("you are signed in as an inspector.")
                && !rollup.stderr.contains("inspector is signed in as inspector"),
            "\(rollup.stderr)")
        for output in outputs {
            for token in tokens {
                #expect(!output.stdout.contains(token) && !output.stderr.contains(token), "a token was printed")
            }
        }

        let logout = try profile.jqc(["logout"])
        #expect(logout.status == 0)
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try state(profile, draft) == "DRAFT", "logout keeps every local report")
        #expect(try profile.jqc(["whoami"]).status == 6)
        let signedOut = try profile.jqc(["sync"])
        #expect(signedOut.status == 6)
        #expect(signedOut.stdout.isEmpty, "sign in again is an error, on stderr: \(signedOut.stdout)")
        #expect(
            signedOut.stderr.contains("jqc login") && signedOut.stderr.split(separator: "\n").count == 1,
            "\(signedOut.stderr)")
        let signedOutJSON = try profile.jqc(["sync", "--json"])
        #expect(signedOutJSON.status == 6 && signedOutJSON.stderr.isEmpty)
        #expect(
            try JSONValue.parse(Data(signedOutJSON.stdout.utf8))["error"]?["code"] == "AUTH_REQUIRED",
            "\(signedOutJSON.stdout)")
    }

    @Test("AC-02: completed offline, sync waits for the network (75) and changes nothing; with a server it is SYNCED")
    func offlineThenOnline() throws {
        let gone = try ServerProcess(["--demo"])
        let profile = try signedIn(to: gone)
        let id = try pendingReport(profile)
        gone.stop()

        let offline = try profile.jqc(["sync"])
        #expect(offline.status == 75)
        // Why it waits is a diagnostic, on stderr, in one line; stdout has no summary of zeros.
        #expect(offline.stderr.hasPrefix("SYNC_OFFLINE: "), "\(offline.stderr)")
        #expect(offline.stderr.hasSuffix("Waiting for network. 1 report pending.\n"), "\(offline.stderr)")
        #expect(offline.stderr.split(separator: "\n").count == 1, "\(offline.stderr)")
        #expect(offline.stdout.isEmpty, "nothing on stdout offline: \(offline.stdout)")
        let raw = try profile.jqc(["sync", "--json"])
        #expect(raw.status == 75)
        #expect(raw.stderr.isEmpty, "with --json the document says it all: \(raw.stderr)")
        let json = (status: raw.status, value: try JSONValue.parse(Data(raw.stdout.utf8)))
        #expect(json.value["error"]?["code"] == "SYNC_OFFLINE")
        let shown = try profile.show(id)
        #expect(shown["state"] == "PENDING")
        #expect(shown["attempt_count"] == 0)
        #expect(try profile.document(["status"]).value["online"] == false)

        let server = try Self.demo.get()
        #expect(
            try profile.jqc(
                ["login", "--server", server.baseURL, "--username", "inspector", "--password-stdin"],
                stdin: "inspector-pass\n"
            ).status == 0)
        let online = try profile.jqc(["sync"])
        #expect(online.status == 0, "\(online.stdout)\(online.stderr)")
        // The pull in English: "1 facility", "3 areas", "1 assignment change".
        let pulled = try #require(
            online.stdout.split(separator: "\n").first { $0.hasPrefix("Pulled ") }, "\(online.stdout)")
        let counts = pulled.dropFirst("Pulled ".count).dropLast().components(separatedBy: ", ")
        #expect(counts.count == 4, "\(pulled)")
        for (count, (one, many)) in zip(
            counts,
            [
                ("facility", "facilities"), ("area", "areas"), ("template", "templates"),
                ("assignment change", "assignment changes"),
            ])
        {
            let number = count.prefix { $0.isNumber }
            #expect(count == "\(number) \(number == "1" ? one : many)", "\(pulled)")
        }
        let synced = try profile.show(id)
        #expect(synced["state"] == "SYNCED")
        let serverID = try #require(synced["server_id"]?.stringValue)
        // The server holds it: an admin revision of that server id succeeds.
        let edit = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "edit-report", serverID, "--answer", "3=2"])
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(try profile.document(["status"]).value["online"] == true)
    }

    @Test("AC-07: five pending, the second rejected by the server; the other four are SYNCED")
    func oneBadReportDoesNotBlockTheOthers() throws {
        let server = try Self.demo.get()
        let profile = try signedIn(to: server)
        let template = profile.path("local-only.json")
        try Data(
            """
            {"templates": [{"id": "local-only", "name": "Only on this device", "version": 1,
              "form_schema": {"fields": [{"id": 1, "type": "pass_fail", "label": "Floor dry", "required": true}]}}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: template))
        #expect(try profile.jqc(["templates", "import", template]).status == 0)

        var ids = [try pendingReport(profile)]
        let odd = try profile.start(["--template", "local-only", "--facility", "F-100"])
        #expect(try profile.jqc(["answer", odd, "1", "pass"]).status == 0)
        #expect(try profile.jqc(["complete", odd]).status == 0)
        ids.append(odd)
        for _ in 0..<3 { ids.append(try pendingReport(profile)) }

        let (status, summary) = try profile.document(["sync"])
        #expect(status == 0)
        #expect(summary["accepted"] == 4)
        #expect(summary["rejected"]?[0]?["local_id"]?.stringValue == odd)
        for (index, id) in ids.enumerated() {
            #expect(try state(profile, id) == (index == 1 ? "REJECTED" : "SYNCED"), "report \(index + 1)")
        }
        #expect(try profile.show(odd)["last_error"]?["code"]?.stringValue?.isEmpty == false)
    }

    @Test("AC-04/05: an amended report whose server copy changed comes back in CONFLICT with the server's answers kept")
    func amendConflict() throws {
        let server = try Self.demo.get()
        let profile = try signedIn(to: server)
        let id = try pendingReport(profile)
        #expect(try profile.jqc(["sync"]).status == 0)
        let serverID = try #require(try profile.show(id)["server_id"]?.stringValue)

        let amend = try profile.jqc(["amend", id])
        #expect(amend.status == 0, "\(amend.stderr)")
        #expect(try state(profile, id) == "DRAFT")
        #expect(try profile.jqc(["answer", id, "2", "5"]).status == 0)
        try profile.sign(id)
        #expect(try profile.jqc(["complete", id]).status == 0)
        let edit = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "edit-report", serverID, "--answer", "2=1"])
        #expect(edit.status == 0, "\(edit.stderr)")

        let sync = try profile.jqc(["sync"])
        #expect(sync.status == 7, "new conflicts need a person: \(sync.stdout)\(sync.stderr)")
        #expect(
            sync.stderr.contains("REPORT_CONFLICT") && sync.stderr.contains("jqc diff"),
            "the conflict to resolve, on stderr: \(sync.stderr)")
        #expect(
            !sync.stdout.contains("REPORT_CONFLICT") && sync.stdout.contains("1 in conflict"),
            "stdout holds the summary: \(sync.stdout)")
        let shown = try profile.show(id)
        #expect(shown["state"] == "CONFLICT")
        #expect(shown["last_error"]?["code"] == "REPORT_CONFLICT")
        #expect(shown["answers"]?["2"] == 5, "my answers are kept, nothing overwritten")
        // A second sync has nothing new to say: the conflict waits for a person.
        #expect(try profile.jqc(["sync"]).status == 0)
    }

    @Test("AC-11: below the server's minimum version, pending work still uploads; starting a report is blocked (5)")
    func versionGate() throws {
        let server = try ServerProcess(["--demo", "--min-app-version", "9.0.0"])
        let profile = try signedIn(to: server)
        let ids = [try pendingReport(profile), try pendingReport(profile)]
        #expect(try profile.jqc(["sync"]).status == 0)
        for id in ids { #expect(try state(profile, id) == "SYNCED") }
        let (status, refused) = try profile.document(["start", "--template", "101", "--facility", "F-100"])
        #expect(status == 5)
        #expect(refused.errorCode == "APP_VERSION_UNSUPPORTED")
        #expect(try profile.document(["status"]).value["app_version_supported"] == false)
    }

    @Test("photos upload after acceptance; a report is SYNCED only when every photo is UPLOADED")
    func photosAfterAcceptance() throws {
        let server = try Self.demo.get()
        let profile = try signedIn(to: server)
        let whole = try profile.startDraft()
        try profile.answerRequired(whole)
        #expect(
            try profile.jqc([
                "photo", "add", whole, "--field", "14", try profile.writeJPEG("a.jpg", seed: 3),
                try profile.writeJPEG("b.jpg", seed: 4),
            ]).status == 0)
        #expect(
            try profile.jqc([
                "issue", "add", whole, "--severity", "high", "--description", "Leak",
                "--photo", try profile.writeJPEG("c.jpg", seed: 5),
            ]).status == 0)
        #expect(try profile.jqc(["complete", whole]).status == 0)

        let broken = try profile.startDraft()
        try profile.answerRequired(broken)
        let before = Set(try profile.photoFolderContents())
        #expect(
            try profile.jqc(["photo", "add", broken, "--field", "14", try profile.writeJPEG("d.jpg", seed: 6)]).status
                == 0)
        #expect(try profile.jqc(["complete", broken]).status == 0)
        let lost = try #require(Set(try profile.photoFolderContents()).subtracting(before).first)
        try FileManager.default.removeItem(atPath: profile.photosFolder + "/" + lost)

        let (status, summary) = try profile.document(["sync"])
        #expect(status == 0)
        #expect(summary["photos_uploaded"] == 3)
        #expect(summary["photos_failed"] == 1)
        let done = try profile.show(whole)
        #expect(done["state"] == "SYNCED")
        #expect(done["photos"]?.arrayValue?.allSatisfy { $0["upload_state"] == "UPLOADED" } == true)
        let waiting = try profile.show(broken)
        #expect(waiting["state"] == "PENDING", "accepted, but a photo is not uploaded")
        #expect(waiting["server_id"]?.stringValue != nil)
        #expect(waiting["photos"]?[0]?["upload_state"] == "FAILED")
        #expect(waiting["last_error"]?["code"] == "PHOTO_UPLOAD_FAILED")
    }

    @Test(
        "a batch over the server's size limit is halved until it fits: every report that fits alone is SYNCED, the one too large alone waits with TOO_LARGE"
    )
    func oversizedBatchIsHalved() throws {
        let server = try ServerProcess(["--demo", "--max-json-bytes", "6000"])
        defer { _ = server.stop() }
        let profile = try signedIn(to: server)
        // About 2.5 KB each: any two fit in 6,000 bytes, three do not.
        var fitting: [String] = []
        for n in 0..<3 {
            let id = try profile.startDraft()
            try profile.answerRequired(id)
            try #require(
                try profile.jqc(["answer", id, "17", String(repeating: "Grout line \(n). ", count: 140)]).status == 0)
            try profile.sign(id)
            try #require(try profile.jqc(["complete", id]).status == 0)
            fitting.append(id)
        }
        let huge = try profile.startDraft()
        try profile.answerRequired(huge)
        try #require(
            try profile.jqc(["answer", huge, "17", String(repeating: "Every cubicle door. ", count: 400)]).status == 0)
        try profile.sign(huge)
        try #require(try profile.jqc(["complete", huge]).status == 0)

        let sync = try profile.jqc(["sync"])
        #expect(sync.status == 1, "the report too large alone is refused: \(sync.stderr)")
        for id in fitting {
            #expect(try state(profile, id) == "SYNCED")
        }
        let refused = try profile.show(huge)
        #expect(refused["state"] == "PENDING")
        #expect(refused["last_error"]?["code"] == "TOO_LARGE")
    }
}
