import FieldTypes
import Foundation
import Models
import Storage
import Testing
import TestSupport
@testable import JQCCore

/// Drafts move onto a new version of their template, field by field, as an
/// inspector sees it from `jqc`: what is kept, what is set aside (never
/// lost), what is left to answer; `migrate` shows, forces or declines it;
/// completed reports never move; a re-inspection of an older parent is
/// pre-filled through the same mapping.
@Suite("Drafts move onto new template versions")
struct TemplateVersionMoveTests {
    static let v1 = #"""
        {"templates": [{"id": "WQ-9", "name": "Washroom QC", "version": 1, "form_schema": {"fields": [
          {"id": 1, "type": "text", "label": "Note"},
          {"id": 2, "type": "rating", "label": "Floors", "max": 5, "required": true},
          {"id": 3, "type": "text", "label": "Soap count"},
          {"id": 7, "type": "text", "label": "Old question"}
        ]}}]}
        """#
    /// Field 7 removed, field 3 retyped from text to number, field 8 new and
    /// required, field 9 required when the floors are rated 2 or less.
    static let v2 = #"""
        {"templates": [{"id": "WQ-9", "name": "Washroom QC", "version": 2, "form_schema": {"fields": [
          {"id": 1, "type": "text", "label": "Note"},
          {"id": 2, "type": "rating", "label": "Floors", "max": 5, "required": true},
          {"id": 3, "type": "number", "label": "Soap count"},
          {"id": 8, "type": "pass_fail", "label": "Mirrors", "required": true},
          {"id": 9, "type": "textarea", "label": "What is wrong with the floors?",
           "required_when": {"field": 2, "op": "le", "value": 2}}
        ]}}]}
        """#

    private func write(_ text: String, _ name: String, in profile: DemoProfile) throws -> String {
        let path = profile.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A demo server that published v1.
    static func serverWithV1() throws -> ServerProcess {
        try ServerProcess(["--demo"]) { db in
            let file = db + ".v1.json"
            try Data(Self.v1.utf8).write(to: URL(fileURLWithPath: file))
            let imported = try Programs.run("jqc-server", ["admin", "--db", db, "import-templates", file])
            guard imported.status == 0 else { throw ServerLaunchError(message: imported.stderr) }
        }
    }

    private func answer(_ profile: DemoProfile, _ id: String, _ answers: [(String, String)]) throws {
        for (field, value) in answers {
            let outcome = try profile.jqc(["answer", id, field, value])
            try #require(outcome.status == 0, "answer \(field) \(value): \(outcome.stderr)")
        }
    }

    @Test("templates import of v2 moves every draft field by field, says so, and show keeps saying it until completed")
    func importMovesDrafts() throws {
        let profile = try DemoProfile()
        try #require(try profile.jqc(["templates", "import", try write(Self.v1, "v1.json", in: profile)]).status == 0)
        let start = ["--template", "WQ-9", "--facility", "F-100"]
        let first = try profile.start(start), second = try profile.start(start), third = try profile.start(start)
        try answer(profile, first, [("3", "12"), ("7", "gone"), ("2", "4")])
        try answer(profile, second, [("3", "a dozen"), ("1", "hi")])
        try answer(profile, third, [("2", "1"), ("1", "slippery")])
        let pending = try profile.start(start)
        try answer(profile, pending, [("2", "5"), ("7", "sent as completed")])
        try #require(try profile.jqc(["complete", pending]).status == 0)

        let imported = try profile.jqc(["templates", "import", try write(Self.v2, "v2.json", in: profile)])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stdout.contains(
                "3 drafts moved to 'Washroom QC' v2; 2 answers set aside: field 7 was removed; field 3 is now a number field: 'a dozen' is not a number"
            ),
            "\(imported.stdout)")
        #expect(imported.stdout.contains("new required field to answer: 8"), "\(imported.stdout)")

        // Kept, read anew by the retyped field, or set aside; the score re-evaluated on the new version.
        let one = try profile.show(first)
        #expect(one["template_version"] == 2 && one["answers"] == ["2": 4, "3": 12], "\(one)")
        #expect(one["set_aside"] == [["field_id": "7", "answer": "gone", "reason": "field 7 was removed"]])
        #expect(one["score"] == 0.8)
        let two = try profile.show(second)
        #expect(two["answers"] == ["1": "hi"] && two["set_aside"]?[0]?["answer"] == "a dozen", "\(two)")
        let three = try profile.show(third)
        #expect(three["answers"] == ["1": "slippery", "2": 1] && three["set_aside"] == [])
        // The new condition holds on the moved answers: field 9 is required now.
        let incomplete = try profile.jqc(["complete", third])
        #expect(incomplete.status == 4 && incomplete.stderr.contains("[8]") == false)
        #expect(
            incomplete.stdout.contains("9") || incomplete.stderr.contains("9"),
            "\(incomplete.stdout) \(incomplete.stderr)")

        // show says what moved, and --history keeps the answer set aside.
        let shown = try profile.jqc(["show", first])
        #expect(
            shown.stdout.contains("Moved:     from v1 to v2; 1 answer set aside: field 7 was removed"),
            "\(shown.stdout)")
        let history = try profile.jqc(["show", first, "--history"])
        #expect(history.stdout.contains("moved onto a new template version v2 (DRAFT)"), "\(history.stdout)")
        #expect(history.stdout.contains("set aside [7]: \"gone\"  (field 7 was removed)"), "\(history.stdout)")
        #expect(history.stdout.contains("[7] Old question: gone"), "named as version 1 had it: \(history.stdout)")

        // The PENDING report never moves: it uploads as it was completed.
        let sent = try profile.show(pending)
        #expect(
            sent["state"] == "PENDING" && sent["template_version"] == 1 && sent["answers"]?["7"] == "sent as completed",
            "\(sent)")

        // Completed, the note is gone from show; the set-aside answer stays in the history.
        try answer(profile, first, [("8", "pass")])
        try #require(try profile.jqc(["complete", first]).status == 0)
        #expect(try !profile.jqc(["show", first]).stdout.contains("Moved:"))
        #expect(try profile.show(first)["set_aside"]?.arrayValue?.count == 1)
    }

    @Test("migrate --dry-run changes nothing; --keep-version keeps a draft on v1, still answerable; migrate moves it")
    func migrateCommand() throws {
        let profile = try DemoProfile()
        try #require(try profile.jqc(["templates", "import", try write(Self.v1, "v1.json", in: profile)]).status == 0)
        let id = try profile.start(["--template", "WQ-9", "--facility", "F-100"])
        try answer(profile, id, [("3", "twelve")])
        let kept = try profile.jqc(["migrate", id, "--keep-version"])
        #expect(kept.status == 0 && kept.stdout.contains("stays on Washroom QC v1"), "\(kept.stdout) \(kept.stderr)")

        let imported = try profile.jqc(["templates", "import", try write(Self.v2, "v2.json", in: profile)])
        #expect(imported.status == 0 && !imported.stdout.contains("moved"), "\(imported.stdout)")
        #expect(try profile.show(id)["template_version"] == 1)
        // Answered against its own version: field 7 exists there.
        #expect(try profile.jqc(["answer", id, "7", "still asked"]).status == 0)
        #expect(try profile.jqc(["show", id]).stdout.contains("Kept on version 1 (v2 is here)"))

        let before = try profile.show(id)
        let historyBefore = try profile.document(["show", id, "--history"]).value["revisions"]?.arrayValue?.count
        let (status, plan) = try profile.document(["migrate", id, "--dry-run"])
        #expect(status == 0)
        #expect(
            plan["dry_run"] == true && plan["moved"] == false && plan["from_version"] == 1 && plan["to_version"] == 2,
            "\(plan)")
        #expect(
            plan["set_aside"]?.arrayValue?.compactMap { $0["field_id"]?.stringValue }.sorted() == ["3", "7"], "\(plan)")
        #expect(plan["new_required"] == ["8"], "field 2 was required on v1 already: \(plan)")
        #expect(try profile.show(id) == before, "a dry run changes nothing")
        #expect(try profile.document(["show", id, "--history"]).value["revisions"]?.arrayValue?.count == historyBefore)

        let (movedStatus, moved) = try profile.document(["migrate", id])
        #expect(movedStatus == 0 && moved["moved"] == true && moved["to_version"] == 2, "\(moved)")
        let after = try profile.show(id)
        #expect(
            after["template_version"] == 2 && after["template_version_kept"] == false && after["answers"] == [:],
            "\(after)")
        #expect(
            after["set_aside"]?.arrayValue?.compactMap { $0["answer"]?.stringValue }.sorted() == [
                "still asked", "twelve",
            ])
        let again = try profile.jqc(["migrate", id])
        #expect(again.status == 0 && again.stdout.contains("nothing to move"), "\(again.stdout)")
        #expect(try profile.jqc(["migrate", id, "--dry-run", "--keep-version"]).status == 2)
    }

    @Test("--keep-version puts a draft a move just took back on its version with its answers; one changed since stays")
    func keepAfterMove() throws {
        let profile = try DemoProfile()
        try #require(try profile.jqc(["templates", "import", try write(Self.v1, "v1.json", in: profile)]).status == 0)
        let start = ["--template", "WQ-9", "--facility", "F-100"]
        let untouched = try profile.start(start), changed = try profile.start(start)
        try answer(profile, untouched, [("3", "a dozen"), ("7", "gone")])
        try answer(profile, changed, [("7", "gone too")])
        try #require(try profile.jqc(["templates", "import", try write(Self.v2, "v2.json", in: profile)]).status == 0)
        try answer(profile, changed, [("8", "pass")])

        let (status, kept) = try profile.document(["migrate", untouched, "--keep-version"])
        #expect(status == 0 && kept["put_back"] == true && kept["template_version"] == 1, "\(kept)")
        let back = try profile.show(untouched)
        #expect(
            back["template_version"] == 1 && back["answers"] == ["3": "a dozen", "7": "gone"]
                && back["template_move"] == .null, "\(back)")
        #expect(
            try profile.jqc(["show", untouched, "--history"]).stdout.contains("put back on its template version v1"))
        #expect(try profile.jqc(["show", untouched]).stdout.contains("Kept on version 1 (v2 is here)"))

        let refused = try profile.jqc(["migrate", changed, "--keep-version"])
        #expect(refused.status == 5 && refused.stderr.contains("changed after it moved to v2"), "\(refused.stderr)")
        #expect(try profile.show(changed)["template_version"] == 2)
    }

    @Test(
        "a signature that no longer holds on the new version is set aside with the rest, never dropped; one that still holds stays"
    )
    func signatures() throws {
        let profile = try DemoProfile()
        let v1 =
            #"{"templates": [{"id": "SG-1", "name": "Signed", "version": 1, "form_schema": {"fields": [{"id": 1, "type": "text", "label": "Note"}, {"id": 2, "type": "text", "label": "Gone"}, {"id": 5, "type": "signature", "label": "Inspector"}]}}]}"#
        let v2 =
            #"{"templates": [{"id": "SG-1", "name": "Signed", "version": 2, "form_schema": {"fields": [{"id": 1, "type": "text", "label": "Note"}, {"id": 5, "type": "signature", "label": "Inspector"}]}}]}"#
        try #require(try profile.jqc(["templates", "import", try write(v1, "s1.json", in: profile)]).status == 0)
        let start = ["--template", "SG-1", "--facility", "F-100"]
        let changed = try profile.start(start), same = try profile.start(start)
        try answer(profile, changed, [("1", "ok"), ("2", "removed next"), ("5", "Dana Inspector")])
        try answer(profile, same, [("1", "ok"), ("5", "Dana Inspector")])
        let signature = try #require(try profile.show(changed)["answers"]?["5"])
        try #require(try profile.jqc(["templates", "import", try write(v2, "s2.json", in: profile)]).status == 0)

        let moved = try profile.show(changed)
        #expect(moved["answers"] == ["1": "ok"], "\(moved)")
        let aside = moved["set_aside"]?.arrayValue ?? []
        #expect(
            aside.contains { $0["field_id"] == "5" && $0["answer"] == signature },
            "the signature is kept in the history: \(aside)")
        #expect(aside.contains { $0["field_id"] == "2" && $0["answer"] == "removed next" })
        #expect(try profile.show(same)["answers"]?["5"] != nil, "nothing it vouched for changed")
    }

    @Test("an answer typed for a draft that a sync moved meanwhile is given to its new version, never to the old one")
    func answerRacesMove() throws {
        let profile = try DemoProfile()
        try #require(try profile.jqc(["templates", "import", try write(Self.v1, "v1.json", in: profile)]).status == 0)
        let id = try profile.start(["--template", "WQ-9", "--facility", "F-100"])
        let context = AppContext(
            profile: Profile.resolve(home: profile.home, environment: [:]),
            registry: FieldTypeRegistry.builtIn(), style: .plain, json: false,
            stdinIsTerminal: false, environment: [:])
        let workspace = try context.workspace()
        let read = try workspace.report(id)
        // The draft moves to v2 (field 3 now a number) after jqc read it and before it saves.
        try #require(try profile.jqc(["templates", "import", try write(Self.v2, "v2.json", in: profile)]).status == 0)
        let saved = try workspace.answer(read, fieldID: "3", input: .typed("12"))
        #expect(
            saved.templateVersion == 2 && saved.answers["3"] == 12, "read by the number field of v2: \(saved.answers)")
        #expect(throws: AppError.self) { try workspace.answer(read, fieldID: "7", input: .typed("gone")) }
        #expect(try profile.show(id)["answers"] == ["3": 12])
    }

    @Test("completed reports are not migrated; a re-inspection of a v1 parent is pre-filled through the mapping on v2")
    func pendingAndReinspection() throws {
        let profile = try DemoProfile()
        try #require(try profile.jqc(["templates", "import", try write(Self.v1, "v1.json", in: profile)]).status == 0)
        let parent = try profile.start(["--template", "WQ-9", "--facility", "F-100"])
        try answer(profile, parent, [("1", "east wing"), ("2", "3"), ("3", "7"), ("7", "old")])
        try #require(try profile.jqc(["complete", parent]).status == 0)
        try #require(try profile.jqc(["templates", "import", try write(Self.v2, "v2.json", in: profile)]).status == 0)

        let refused = try profile.jqc(["migrate", parent])
        #expect(refused.status == 5 && refused.stderr.contains("PENDING"), "\(refused.stderr)")
        #expect(try profile.show(parent)["template_version"] == 1)

        let (status, started) = try profile.document(["reinspect", parent])
        try #require(status == 0, "\(started)")
        let child = try #require(started["local_id"]?.stringValue)
        let shown = try profile.show(child)
        #expect(shown["template_version"] == 2)
        #expect(
            shown["answers"] == ["1": "east wing", "3": 7],
            "the text '7' read by the retyped number field; the rating is observed again: \(shown)")
    }

    @Test("a sync that brings v2 moves the draft and says so; the moved report completes and syncs")
    func syncMovesDrafts() throws {
        let server = try Self.serverWithV1()
        defer { server.stop() }
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        try #require(try profile.jqc(["sync"]).status == 0)
        let id = try profile.start(["--template", "WQ-9", "--facility", "F-100"])
        try answer(profile, id, [("2", "4"), ("3", "12"), ("7", "gone")])

        let file = profile.path("v2.json")
        try Data(Self.v2.utf8).write(to: URL(fileURLWithPath: file))
        let published = try Programs.run(
            "jqc-server", ["admin", "--db", server.databasePath, "import-templates", file])
        try #require(published.status == 0, "\(published.stderr)")
        let synced = try profile.jqc(["sync"])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(
            synced.stdout.contains("1 draft moved to 'Washroom QC' v2; 1 answer set aside: field 7 was removed"),
            "\(synced.stdout)")
        #expect(try profile.show(id)["answers"] == ["2": 4, "3": 12])

        // The agent's cycle moves drafts too, and logs it without a word of any answer.
        let v3 = profile.path("v3.json")
        try Data(Self.v2.replacingOccurrences(of: "\"version\": 2", with: "\"version\": 3").utf8).write(
            to: URL(fileURLWithPath: v3))
        try #require(
            try Programs.run("jqc-server", ["admin", "--db", server.databasePath, "import-templates", v3]).status == 0)
        let agent = try profile.agent(["run", "--once"])
        #expect(agent.status == 0, "\(agent.stderr)")
        let logged = try #require(
            agent.stderr.split(separator: "\n").first { $0.contains("\"drafts_moved\"") }, "\(agent.stderr)")
        #expect(
            logged.contains("\"template_id\":\"WQ-9\"") && logged.contains("\"version\":3") && logged.contains(id),
            "\(logged)")
        #expect(!agent.stderr.contains("gone"), "no answer in the log")
        #expect(try profile.show(id)["template_version"] == 3)

        try answer(profile, id, [("8", "pass")])
        try #require(try profile.jqc(["complete", id]).status == 0)
        let (status, sent) = try profile.document(["sync"])
        #expect(status == 0 && sent["moved"] == [], "\(sent)")
        #expect(try profile.show(id)["state"] == "SYNCED")
    }

    @Test(
        "a draft kept on v1 (--keep-version) completes and is accepted by a server whose current version is v2, judged by v1"
    )
    func keptVersionSyncs() throws {
        let server = try Self.serverWithV1()
        defer { server.stop() }
        let profile = try DemoProfile.signedIn(to: server.baseURL)
        try #require(try profile.jqc(["sync"]).status == 0)
        let id = try profile.start(["--template", "WQ-9", "--facility", "F-100"])
        try answer(profile, id, [("2", "4"), ("3", "a dozen"), ("7", "kept")])
        let file = profile.path("v2.json")
        try Data(Self.v2.utf8).write(to: URL(fileURLWithPath: file))
        try #require(
            try Programs.run("jqc-server", ["admin", "--db", server.databasePath, "import-templates", file]).status == 0
        )
        try #require(try profile.jqc(["sync"]).status == 0)
        let kept = try profile.jqc(["migrate", id, "--keep-version"])
        try #require(kept.status == 0, "\(kept.stderr)")
        #expect(try profile.show(id)["template_version"] == 1)
        #expect(
            try profile.show(id)["answers"] == ["2": 4, "3": "a dozen", "7": "kept"],
            "v1's answers, field 7 and text in 3")

        try #require(try profile.jqc(["complete", id]).status == 0)
        let (status, sent) = try profile.document(["sync"])
        #expect(status == 0, "\(sent)")
        #expect(sent["accepted"] == 1 && sent["rejected"] == [], "\(sent)")
        #expect(try profile.show(id)["state"] == "SYNCED")
    }
}
