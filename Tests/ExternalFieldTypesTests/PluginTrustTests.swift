import ExternalFieldTypes
import FieldTypes
import Foundation
import Models
import Testing
import TestSupport

/// A plugin runs with the caller's rights: one that others could have
/// written is not run, and no plugin is handed the caller's secrets.
@Suite("Plugins anyone may write are refused; plugins get a minimal environment")
struct PluginTrustTests {
    @Test(
        "a plugin another user owns, or one writable by others, or in a folder writable by others, is not run, saying which and why"
    )
    func untrustedRefused() throws {
        let base = TemporaryDirectory(prefix: "jqc-plugins")
        // The plugin writes a file when it runs: it must never run.
        let marker = base.path("ran")
        let script = "#!/bin/sh\ntouch '\(marker)'\nexit 1\n"

        let foreign = base.path("foreign")
        let owned = try FieldTypePlugins.write("ph_reading", script: script, into: foreign)
        #expect(chown(owned, 65_534, 65_534) == 0)
        let open = base.path("open")
        let writable = try FieldTypePlugins.write("ph_reading", script: script, into: open)
        #expect(chmod(writable, 0o777) == 0)
        let shared = base.path("shared")
        let inShared = try FieldTypePlugins.write("ph_reading", script: script, into: shared)
        #expect(chmod(shared, 0o777) == 0)

        for (folder, path, words) in [
            (foreign, owned, "belongs to user 65534"), (open, writable, "may be written by other users (mode 777)"),
            (shared, inShared, "the folder \(shared), on the way to it, may be written by other users"),
        ] {
            let warnings = Warnings()
            let reason =
                registry(with: folder, settings: warnings.settings(timeout: 1)).resolve(cleanerPH).unavailableReason
                ?? ""
            #expect(reason.contains(path) && reason.contains(words), "\(reason)")
            #expect(warnings.all.first?.contains("is not run") == true, "\(warnings.all)")
        }
        #expect(!FileManager.default.fileExists(atPath: marker), "no untrusted plugin ran")

        // The same plugin, the caller's own and written by nobody else, runs.
        let mine = base.path("mine")
        try FieldTypePlugins.installPHReading(into: mine)
        #expect(
            registry(with: mine, settings: Warnings().settings(timeout: 5)).resolve(cleanerPH).unavailableReason == nil)
    }

    @Test("jqc field-types check refuses a plugin anyone may write, saying why")
    func jqcRefuses() throws {
        let base = TemporaryDirectory(prefix: "jqc-plugins")
        let path = try FieldTypePlugins.installPHReading(into: base.path("open"))
        #expect(chmod(path, 0o777) == 0)
        let checked = try Programs.run("jqc", ["field-types", "check", path, "--json", "--home", base.path("home")])
        #expect(checked.status != 0)
        #expect(
            checked.stdout.contains("is not run: it may be written by other users (mode 777)"),
            "\(checked.stdout) \(checked.stderr)")
    }

    @Test(
        "a plugin is started with PATH, HOME, the locale, TMPDIR, TZ and its own JQC_FIELD_<NAME>_ variables, not the caller's secrets"
    )
    func minimalEnvironment() throws {
        let base = TemporaryDirectory(prefix: "jqc-plugins")
        let dump = base.path("environment")
        // Writes its environment, then behaves as the example type.
        let example = try String(contentsOfFile: FieldTypePlugins.phReading, encoding: .utf8)
        let script = example.replacingOccurrences(
            of: "import sys\n",
            with: "import sys\nimport os\nopen('\(dump)', 'w').write('\\n'.join(sorted(os.environ)))\n")
        #expect(script != example, "the example imports sys")
        let folder = base.path("types")
        try FieldTypePlugins.write("ph_reading", script: script, into: folder)
        setenv("JQC_TEST_SECRET_TOKEN", "do-not-pass", 1)
        setenv("JQC_TEST_API_TOKEN", "do-not-pass", 1)
        setenv("JQC_FIELD_PH_READING_UNITS", "pH", 1)
        defer {
            unsetenv("JQC_TEST_SECRET_TOKEN")
            unsetenv("JQC_TEST_API_TOKEN")
            unsetenv("JQC_FIELD_PH_READING_UNITS")
        }
        #expect(
            registry(with: folder, settings: Warnings().settings(timeout: 5)).resolve(cleanerPH).unavailableReason
                == nil)
        let names = Set(try String(contentsOfFile: dump, encoding: .utf8).split(separator: "\n").map(String.init))
        #expect(names.contains("PATH") && names.contains("JQC_FIELD_PH_READING_UNITS"), "\(names)")
        #expect(!names.contains("JQC_TEST_SECRET_TOKEN") && !names.contains("JQC_TEST_API_TOKEN"), "\(names)")
    }
}
