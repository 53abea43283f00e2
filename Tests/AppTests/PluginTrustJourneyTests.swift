import Foundation
import Models
import Testing
import TestSupport

/// What a security trial found with plugins, through the real `jqc` and
/// `jqc-server`: a field type others could have written is never run by
/// either, and a plugin that runs is not handed the caller's secrets.
@Suite("Plugins through jqc and jqc-server: never one others may write, never the caller's secrets")
struct PluginTrustJourneyTests {
    /// A script that leaves a mark when it runs, then fails.
    static func marking(_ marker: String) -> String { "#!/bin/sh\ntouch '\(marker)'\nexit 1\n" }

    @Test(
        "jqc never runs a plugin anyone may write: answering, showing and completing leave no mark, each names the file, and a required field of it stays to be answered"
    )
    func deviceNeverRunsUntrusted() throws {
        let base = TemporaryDirectory(prefix: "jqc-untrusted")
        let marker = base.path("ran")
        let profile = try ExternalFieldTypesJourneyTests.profile { folder in
            let path = try FieldTypePlugins.write("ph_reading", script: Self.marking(marker), into: folder)
            #expect(chmod(path, 0o777) == 0)
        }
        let id = try profile.start(["--template", "ph-101", "--facility", "F-100"])
        #expect(try profile.jqc(["answer", id, "1", "5"]).status == 0)
        let typed = try profile.jqc(["answer", id, "2", "pH 7"])
        #expect(
            typed.stderr.contains("jqc-field-ph_reading is not run") && typed.stderr.contains("mode 777"),
            "\(typed.stderr)")
        let kept = try profile.jqc(["answer", id, "2", "--value-json", "7.0"])
        #expect(kept.status == 0, "an answer given as JSON is kept, not judged: \(kept.stderr)")
        _ = try profile.jqc(["show", id])
        let completed = try profile.jqc(["complete", id])
        #expect(completed.status == 4 && completed.stderr.contains("is unavailable"), "\(completed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "jqc never ran the plugin")
    }

    @Test(
        "jqc-server never runs a plugin anyone may write in --field-types-dir: judging a report leaves no mark; the report is refused saying why, and the log names the file"
    )
    func serverNeverRunsUntrusted() throws {
        let base = TemporaryDirectory(prefix: "jqc-untrusted")
        let marker = base.path("ran")
        let serverFolder = base.path("server-types")
        let serverPlugin = try FieldTypePlugins.write("ph_reading", script: Self.marking(marker), into: serverFolder)
        #expect(chmod(serverPlugin, 0o777) == 0)
        let server = try ExternalFieldTypesJourneyTests.server(["--field-types-dir", serverFolder])
        let profile = try ExternalFieldTypesJourneyTests.profile { try FieldTypePlugins.installPHReading(into: $0) }
        let login = try profile.jqc(
            ["login", "--server", server.baseURL, "--username", "inspector", "--password-stdin"],
            stdin: "inspector-pass\n")
        try #require(login.status == 0, "login: \(login.stderr)")
        let id = try profile.start(["--template", "ph-101", "--facility", "F-100"])
        #expect(try profile.jqc(["answer", id, "1", "5"]).status == 0)
        #expect(try profile.jqc(["answer", id, "2", "pH 7"]).status == 0)
        #expect(try profile.jqc(["complete", id]).status == 0)
        let sync = try profile.jqc(["sync"])
        #expect(sync.status == 0, "a refused report is told, the cycle itself succeeded: \(sync.stdout)\(sync.stderr)")
        let shown = try profile.show(id)
        // The server cannot judge the answer, so it refuses the report and says why; the device keeps it.
        #expect(shown["state"] == "REJECTED", "\(shown)")
        let why = shown["last_error"]?["message"]?.stringValue ?? ""
        #expect(
            why.contains("cannot be judged") && why.contains("is not run: it may be written by other users"), "\(why)")
        #expect(!FileManager.default.fileExists(atPath: marker), "jqc-server never ran the plugin")
        let serverLog = (try? String(contentsOfFile: server.directory.path("server.stderr"), encoding: .utf8)) ?? ""
        #expect(serverLog.contains(serverPlugin) && serverLog.contains("is not run"), "\(serverLog)")
    }

    @Test("a plugin jqc runs sees PATH and its own JQC_FIELD_<NAME>_ variables, never the caller's tokens")
    func minimalEnvironment() throws {
        let base = TemporaryDirectory(prefix: "jqc-plugin-env")
        let dump = base.path("environment")
        let example = try String(contentsOfFile: FieldTypePlugins.phReading, encoding: .utf8)
        let script = example.replacingOccurrences(
            of: "import sys\n",
            with: "import sys\nimport os\nopen('\(dump)', 'w').write('\\n'.join(sorted(os.environ)))\n")
        #expect(script != example, "the example imports sys")
        let profile = try ExternalFieldTypesJourneyTests.profile { folder in
            try FieldTypePlugins.write("ph_reading", script: script, into: folder)
        }
        let id = try profile.start(["--template", "ph-101", "--facility", "F-100"])
        let typed = try profile.jqc(
            ["answer", id, "2", "pH 7"],
            environment: [
                "JQC_TEST_SECRET_TOKEN": "do-not-pass", "AWS_SECRET_ACCESS_KEY": "do-not-pass",
                "JQC_FIELD_PH_READING_UNITS": "pH",
            ])
        #expect(typed.status == 0, "\(typed.stderr)")
        let names = Set(try String(contentsOfFile: dump, encoding: .utf8).split(separator: "\n").map(String.init))
        #expect(names.contains("PATH") && names.contains("JQC_FIELD_PH_READING_UNITS"), "\(names)")
        #expect(!names.contains("JQC_TEST_SECRET_TOKEN") && !names.contains("AWS_SECRET_ACCESS_KEY"), "\(names)")
    }
}
