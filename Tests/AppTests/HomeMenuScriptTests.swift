import FieldTypes
import Foundation
import Storage
import Testing
import TestSupport
@testable import JQCApp
import JQCCore

/// The menu core driven by scripted lines, as the dispatcher drives it from a terminal.
@Suite("Home menu driven by scripted input")
struct HomeMenuScriptTests {
    /// Runs the menu on a demo profile with these lines as input, then end of input.
    func run(_ lines: [String], profile: DemoProfile) async throws -> (code: Int32, output: [String]) {
        try await ScriptedMenu.run(lines, profile: profile)
    }

    @Test("end of input anywhere leaves the menu with exit 0 and the status line")
    func endOfInput() async throws {
        let profile = try DemoProfile()
        let (code, output) = try await run(["7"], profile: profile)
        #expect(code == 0)
        #expect(output.contains("Settings"))
        #expect(output.last == "not signed in · 0 pending · 0 conflicts · 0 failed")
    }

    @Test("a wrong letter is explained, the screen is drawn again, and b goes back home")
    func wrongLetter() async throws {
        let profile = try DemoProfile()
        let (code, output) = try await run(["2", "x", "b", "q"], profile: profile)
        #expect(code == 0)
        #expect(output.contains("No drafts: every report on this device is complete."))
        #expect(output.contains("'x' is not a choice here; type b or q."))
        #expect(output.filter { $0 == "Drafts to resume" }.count == 2)
        #expect(output.filter { $0 == "JanitorialQC" }.count == 2)
    }

    @Test("a draft is deleted only after y, through the same rules as 'jqc delete'")
    func deleteDraft() async throws {
        let profile = try DemoProfile()
        let id = try profile.start(["--assignment", "AS-1"])
        let (_, kept) = try await run(["2", "1", "d", "", "q"], profile: profile)
        #expect(kept.contains("Not deleted."))
        #expect((try profile.json(["list"])["reports"] as? [Any])?.count == 1)
        let (_, output) = try await run(["2", "1", "d", "y", "q"], profile: profile)
        #expect(output.contains("Deleted draft \(id.prefix(8)) with its photos and issues."))
        #expect((try profile.json(["list"])["reports"] as? [Any])?.count == 0)
    }

    @Test("flagging an issue: a wrong severity is refused as soon as it is typed, before the description is asked for")
    func severityCheckedFirst() async throws {
        let profile = try DemoProfile()
        let id = try profile.start(["--assignment", "AS-1"])
        let (_, output) = try await run(["2", "1", "i", "urgent", "high", "Leaking tap", "", "q"], profile: profile)
        let refused = try #require(output.firstIndex { $0.contains("'urgent' is not a severity") }, "\(output)")
        let described = try #require(output.firstIndex { $0.hasPrefix("Description: ") }, "\(output)")
        #expect(refused < described, "the severity was checked only after the description")
        let issues = try profile.document(["issues"]).value["issues"]?.arrayValue ?? []
        #expect(issues.count == 1 && issues.first?["severity"] == "high", "\(issues)")
        #expect(issues.first?["report_local_id"]?.stringValue?.hasPrefix(String(id.prefix(8))) ?? true)
    }
}

/// A report in CONFLICT opened from the menu offers the same comparison and
/// decisions as 'jqc diff' and 'jqc resolve'.
@Suite("Home menu: a report in conflict")
struct HomeMenuConflictTests {
    @Test("the report screen shows the differences and resolves field by field, refusing a wrong side")
    func resolveFieldByField() async throws {
        let profile = try DemoProfile()
        let id = try ConflictCommandTests().conflicted(profile)
        let (code, output) = try await HomeMenuScriptTests().run(
            ["3", "1", "v", "f", "x", "m", "m", "q"], profile: profile)
        #expect(code == 0)
        #expect(
            output.contains { $0.contains("keep mine") } && output.contains { $0.contains("choose field by field") },
            "\(output)")
        #expect(output.contains("2 fields differ."), "\(output)")
        #expect(output.contains("! Type m for yours or s for the server's."), "\(output)")
        #expect(output.contains { $0.contains("PENDING on top of server revision 2") }, "\(output)")
        let shown = try profile.show(id)
        #expect(shown["state"] == "PENDING")
        #expect(shown["answers"]?["2"] == 4, "field 2: mine was kept")
        #expect(shown["answers"]?["15"] == "Sam (corrected)", "field 15: mine was kept")
    }

    @Test(
        "choosing the server's side for an answer the signature never saw is refused and the report stays in conflict")
    func mixedSidesUnderSignatureRefused() async throws {
        let profile = try DemoProfile()
        let id = try ConflictCommandTests().conflicted(profile)
        let (_, output) = try await HomeMenuScriptTests().run(["3", "1", "v", "f", "m", "s", "q"], profile: profile)
        #expect(output.contains { $0.contains("was not queued") && $0.contains("Inspector signature") }, "\(output)")
        #expect(try profile.show(id)["state"] == "CONFLICT")
    }

    @Test("take the server's asks first; y leaves the report SYNCED with the server's answers")
    func takeServer() async throws {
        let profile = try DemoProfile()
        let id = try ConflictCommandTests().conflicted(profile)
        let (_, kept) = try await HomeMenuScriptTests().run(["3", "1", "s", "", "q"], profile: profile)
        #expect(kept.contains("Still in CONFLICT."), "\(kept)")
        #expect(try profile.show(id)["state"] == "CONFLICT")
        let (_, output) = try await HomeMenuScriptTests().run(["3", "1", "s", "y", "q"], profile: profile)
        #expect(output.contains { $0.contains("Took the server's revision 2") }, "\(output)")
        let shown = try profile.show(id)
        #expect(shown["state"] == "SYNCED")
        #expect(shown["answers"]?["2"] == 2)
    }
}
