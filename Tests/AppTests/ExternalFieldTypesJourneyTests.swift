import Foundation
import Models
import Testing
import TestSupport

/// External field types end to end: the example `ph_reading` plugin in a
/// device profile's `field-types/` folder and in `jqc-server --field-types-dir`,
/// driven through the real `jqc` and `jqc-server`; and plugins that never
/// answer, which must cost a command seconds at most and say who is to blame.
@Suite("External field types from device to server")
struct ExternalFieldTypesJourneyTests {
    static let templates = #"""
        {"templates": [{"id": "ph-101", "name": "Chemical dilution check", "version": 1, "form_schema": {"fields": [
          {"id": 1, "type": "rating", "label": "Floors", "required": true},
          {"id": 2, "type": "ph_reading", "label": "Floor cleaner pH", "required": true, "critical": true,
           "allowed_min": 6.5, "allowed_max": 8.5}
        ]}}]}
        """#

    /// A server knowing the templates, with `arguments` (its `--field-types-dir`).
    static func server(_ arguments: [String]) throws -> ServerProcess {
        try ServerProcess(["--demo"] + arguments) { db in
            let file = db + ".ph-templates.json"
            try Data(Self.templates.utf8).write(to: URL(fileURLWithPath: file))
            let imported = try Programs.run("jqc-server", ["admin", "--db", db, "import-templates", file])
            guard imported.status == 0 else { throw ServerLaunchError(message: imported.stderr) }
        }
    }

    /// A demo profile with the templates imported and `install` run on its `field-types/` folder first.
    static func profile(install: (String) throws -> Void) throws -> DemoProfile {
        let profile = try DemoProfile()
        try install((profile.home as NSString).appendingPathComponent("field-types"))
        let file = profile.path("ph-templates.json")
        try Data(Self.templates.utf8).write(to: URL(fileURLWithPath: file))
        let imported = try profile.jqc(["templates", "import", file])
        guard imported.status == 0 else { throw ServerLaunchError(message: "templates import: \(imported.stderr)") }
        return profile
    }

    @Test(
        "a reading is typed, shown and scored by the plugin; a failed critical reading needs a follow-up; the server with --field-types-dir accepts it and scores it the same"
    )
    func journey() async throws {
        let serverPlugins = TemporaryDirectory(prefix: "jqc-server-plugins")
        try FieldTypePlugins.installPHReading(into: serverPlugins.url.path)
        let server = try Self.server(["--field-types-dir", serverPlugins.url.path])
        let profile = try Self.profile { try FieldTypePlugins.installPHReading(into: $0) }
        let login = try profile.jqc(
            ["login", "--server", server.baseURL, "--username", "inspector", "--password-stdin"],
            stdin: "inspector-pass\n")
        try #require(login.status == 0, "login: \(login.stderr)")

        let id = try profile.start(["--template", "ph-101", "--facility", "F-100"])
        #expect(try profile.jqc(["answer", id, "1", "5"]).status == 0)
        let typed = try profile.jqc(["answer", id, "2", "pH 9,4"])
        #expect(typed.status == 0, "answering pH 9,4: \(typed.stderr)")
        let refused = try profile.jqc(["answer", id, "2", "acidic"])
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("'acidic' is not a pH reading"), "\(refused.stderr)")
        #expect(try profile.show(id)["answers"]?["2"] == 9.4)

        let shown = try profile.jqc(["show", id])
        #expect(shown.stdout.contains("Floor cleaner pH: pH 9.4 (allowed 6.5 to 8.5, OUT OF RANGE)"), "\(shown.stdout)")
        #expect(shown.stderr.isEmpty, "a working plugin prints nothing: \(shown.stderr)")

        let (status, completed) = try profile.document(["complete", id])
        try #require(status == 0, "complete: \(completed)")
        let deviceScore = try #require(completed["score"]?.numberValue)
        #expect(abs(deviceScore - 0.5) < 1e-9, "floors 1 of 1, the pH reading 0 of 1")
        #expect(completed["score_breakdown"]?["critical_failures"] == ["2"])
        #expect(try profile.show(id)["follow_up_required"] == true)

        let sync = try profile.jqc(["sync"])
        #expect(sync.status == 0, "sync: \(sync.stdout) \(sync.stderr)")
        let synced = try profile.show(id)
        #expect(synced["state"] == "SYNCED", "\(synced)")
        let serverID = try #require(synced["server_id"]?.stringValue)
        let session = try await HTTPTestClient().send(
            "POST", server.url("/auth/login"),
            json: ["username": "inspector", "password": "inspector-pass"])
        let token = try #require(session.data["access_token"]?.stringValue)
        let history = try await HTTPTestClient().send(
            "GET", server.url("/inspections?status=completed&limit=30&offset=0"), token: token)
        let item = history.data["items"]?.arrayValue?.first { $0["server_id"]?.stringValue == serverID }
        let serverScore = try #require(item?["score"]?.numberValue, "the server scored the report: \(history.data)")
        #expect(
            abs(serverScore - deviceScore) < 1e-9,
            "the server asked the plugin too: server \(serverScore), device \(deviceScore)")

        // The admin command judges a server revision with the same plugins, given the same folder.
        let admin = [
            "admin", "--db", server.databasePath, "edit-report", serverID, "--field-types-dir", serverPlugins.url.path,
        ]
        let wrong = try Programs.run("jqc-server", admin + ["--answer", "2=\"acidic\""])
        #expect(wrong.status == 4, "the plugin refuses the answer: \(wrong.stdout) \(wrong.stderr)")
        #expect(
            wrong.stderr.contains("a pH reading is a number from 0 to 14"), "the plugin's own words: \(wrong.stderr)")
        let right = try Programs.run("jqc-server", admin + ["--answer", "2=7.2"])
        #expect(right.status == 0, "\(right.stderr)")
    }

    @Test("a server whose plugin never answers rejects the report, naming the plugin, and says so once in its log")
    func serverPluginSilent() throws {
        let serverPlugins = TemporaryDirectory(prefix: "jqc-server-plugins")
        let silent = try FieldTypePlugins.write(
            "ph_reading", script: FieldTypePlugins.Misbehaviour.silent.script(name: "ph_reading"),
            into: serverPlugins.url.path)
        let server = try Self.server(["--field-types-dir", serverPlugins.url.path, "--field-type-timeout", "1"])
        let profile = try Self.profile { try FieldTypePlugins.installPHReading(into: $0) }
        try #require(
            try profile.jqc(
                ["login", "--server", server.baseURL, "--username", "inspector", "--password-stdin"],
                stdin: "inspector-pass\n"
            ).status == 0)
        let id = try profile.start(["--template", "ph-101", "--facility", "F-100"])
        #expect(try profile.jqc(["answer", id, "1", "4"]).status == 0)
        #expect(try profile.jqc(["answer", id, "2", "7.1"]).status == 0)
        #expect(try profile.jqc(["complete", id]).status == 0)

        let started = Date()
        _ = try profile.jqc(["sync"])
        #expect(Date().timeIntervalSince(started) < 30, "the server's wait for its plugin is bounded")
        let report = try profile.show(id)
        #expect(report["state"] == "REJECTED", "\(report)")
        let message = report["last_error"]?["message"]?.stringValue ?? ""
        #expect(message.contains(silent) && message.contains("did not answer"), "\(message)")
        let warned = server.stderr.components(separatedBy: "\n").filter { $0.contains(silent) }
        #expect(warned.count == 1, "one line in the server's log: \(server.stderr)")
    }

    @Test(
        "a device plugin that never answers costs each command seconds at most: typing is refused and completion blocked, naming it"
    )
    func devicePluginSilent() throws {
        var silent = ""
        let profile = try Self.profile { folder in
            silent = try FieldTypePlugins.write(
                "ph_reading", script: FieldTypePlugins.Misbehaviour.silent.script(name: "ph_reading"),
                into: folder)
        }
        let id = try profile.start(["--template", "ph-101", "--facility", "F-100"])
        #expect(try profile.jqc(["answer", id, "1", "4"]).status == 0)

        let started = Date()
        let typed = try profile.jqc(["answer", id, "2", "7.1"])
        #expect(Date().timeIntervalSince(started) < 15, "jqc finished within seconds")
        #expect(typed.status == 4)
        #expect(
            typed.stderr.contains(silent) && typed.stderr.contains("did not answer 'describe' within 2 s"),
            "\(typed.stderr)")

        let raw = try profile.jqc(["answer", id, "2", "--value-json", "7.1"])
        #expect(raw.status == 0, "an answer is kept as JSON: \(raw.stderr)")
        let shown = try profile.jqc(["show", id])
        #expect(shown.stdout.contains("field type 'ph_reading' unavailable: 7.1"), "\(shown.stdout)")
        let warnings = shown.stderr.components(separatedBy: "\n").filter { $0.contains(silent) }
        #expect(warnings.count == 1, "one warning line per run: \(shown.stderr)")

        let (status, refusal) = try profile.document(["complete", id])
        #expect(status == 4)
        let problems = refusal["error"]?["problems"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(problems.contains { $0.contains("Floor cleaner pH") && $0.contains(silent) }, "\(refusal)")
    }

    @Test("a plugin that ignores the end of its input does not outlive jqc: it is stopped as jqc exits")
    func pluginStoppedAtExit() throws {
        var path = ""
        let profile = try Self.profile { folder in
            // The example, changed to stay alive after its input ends (and to shrug off SIGTERM).
            let example = try String(contentsOfFile: FieldTypePlugins.phReading, encoding: .utf8)
            let stubborn = example.replacingOccurrences(
                of: "        main()\n",
                with: """
                            main()
                            import signal, time
                            signal.signal(signal.SIGTERM, signal.SIG_IGN)
                            time.sleep(600)

                    """)
            try #require(stubborn != example, "the example's entry point moved; update this test")
            path = try FieldTypePlugins.write("ph_reading", script: stubborn, into: folder)
        }
        let id = try profile.start(["--template", "ph-101", "--facility", "F-100"])
        let typed = try profile.jqc(["answer", id, "2", "7.1"])
        #expect(typed.status == 0, "the plugin answers while jqc runs: \(typed.stderr)")
        let deadline = Date().addingTimeInterval(5)
        var left = Self.processes(running: path)
        while !left.isEmpty, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            left = Self.processes(running: path)
        }
        #expect(left.isEmpty, "plugin processes left after jqc exited: \(left)")
    }

    /// The ids of processes whose command line names `path`.
    static func processes(running path: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            guard Int32(entry) != nil, let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else {
                return false
            }
            return String(decoding: data, as: UTF8.self).contains(path)
        }
    }

    @Test(
        "an executable named like a compiled-in type is ignored with one warning: a line from jqc, a JSON log line from jqc-agent"
    )
    func compiledInWins() throws {
        let profile = try DemoProfile()
        let folder = (profile.home as NSString).appendingPathComponent("field-types")
        let shadow = try FieldTypePlugins.write("rating", script: "#!/bin/sh\n", into: folder)
        let listing = try profile.jqc(["field-types", "--json"])
        #expect(listing.status == 0)
        #expect(
            try JSONValue.parse(listing.stdout)["field_types"]?.arrayValue?.first { $0["name"] == "rating" }?["origin"]
                == "built-in")
        #expect(
            listing.stderr
                == "jqc: warning: \(shadow) is ignored: field type 'rating' is compiled in, and the compiled-in type wins\n"
        )
        let agent = try profile.agent(["status"])
        #expect(agent.status == 0)
        let logged = agent.stderr.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
        #expect(logged.count == 1 && logged.first?["event"] == "field_type_warning", "\(agent.stderr)")
        #expect(logged.first?["message"]?.stringValue?.contains(shadow) == true)
    }

    @Test(
        "jqc field-types lists every type with its origin; field-types check passes the example and lists a broken plugin's failures"
    )
    func commands() throws {
        let profile = try Self.profile { try FieldTypePlugins.installPHReading(into: $0) }
        let installed = (profile.home as NSString).appendingPathComponent("field-types/jqc-field-ph_reading")
        let listing = try profile.jqc(["field-types"])
        #expect(listing.status == 0)
        #expect(listing.stdout.contains("rating") && listing.stdout.contains("built-in"))
        #expect(listing.stdout.contains("package SiteFieldTypes"))
        #expect(
            listing.stdout.split(separator: "\n").contains { $0.hasPrefix("ph_reading") && $0.contains(installed) },
            "\(listing.stdout)")
        let (_, document) = try profile.document(["field-types"])
        let entry = document["field_types"]?.arrayValue?.first { $0["name"] == "ph_reading" }
        #expect(entry == ["name": "ph_reading", "origin": "external", "path": .string(installed)])

        let passes = try profile.jqc(["field-types", "check", FieldTypePlugins.phReading])
        #expect(passes.status == 0, "\(passes.stderr)")
        #expect(passes.stdout.contains("passes every conformance check"))

        let folder = TemporaryDirectory(prefix: "jqc-broken")
        let garbage = try FieldTypePlugins.write(
            "noisy", script: FieldTypePlugins.Misbehaviour.garbage.script(name: "noisy"),
            into: folder.url.path)
        let (failStatus, failed) = try profile.document(["field-types", "check", garbage])
        #expect(failStatus == 4)
        #expect(failed["error"]?["code"] == "FIELD_TYPE_NONCONFORMANT")
        #expect(
            failed["error"]?["problems"]?.arrayValue?.first?.stringValue?.contains(
                "does not speak the field-type protocol") == true, "\(failed)")
        #expect(try profile.jqc(["field-types", "check", folder.path("jqc-field-absent")]).status == 3)
    }
}
