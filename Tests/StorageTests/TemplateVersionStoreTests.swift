import Foundation
import Models
import SQLite
import Storage
import Testing
import TestSupport

/// Every template version the device has seen, the version each report was
/// answered on, and drafts moved onto the newest one in one transaction.
@Suite("Template versions in the store")
struct TemplateVersionStoreTests {
    static func template(_ version: Int, fields: JSONValue) throws -> Template {
        try Template.decode([
            "id": "T", "name": "Washroom QC", "version": .integer(Int64(version)),
            "form_schema": ["fields": fields],
        ]).get()
    }

    static let v1Fields: JSONValue = [["id": 1, "type": "text"], ["id": 7, "type": "text"]]
    static let v2Fields: JSONValue = [["id": 1, "type": "text"], ["id": 9, "type": "text", "required": true]]

    /// The plan a workspace would make: field 7 set aside, the rest kept.
    static func plan(_ report: Report, _ from: Template?, _ to: Template) -> PlannedMove {
        var answers = report.answers
        var aside: [SetAsideAnswer] = []
        if let gone = answers["7"] {
            aside.append(SetAsideAnswer(fieldID: "7", answer: gone, reason: "field 7 was removed"))
            answers["7"] = nil
        }
        return PlannedMove(
            answers: answers, score: nil,
            move: TemplateMove(fromVersion: from?.version, toVersion: to.version, setAside: aside, newRequired: ["9"]))
    }

    /// Takes a store back to before the step `add-template-versions`, as the release before it left stores
    /// (and so before the later step that gives templates and their versions a pass threshold).
    static func undoTemplateVersions(_ db: Database) throws {
        try db.execute("ALTER TABLE templates DROP COLUMN pass_threshold")
        try db.execute("DELETE FROM schema_migrations WHERE name = 'add-pass-threshold'")
        try db.setUserVersion(try db.userVersion() - 1)
        try db.execute("DROP INDEX reports_by_template")
        try db.execute("DROP TABLE template_versions")
        for column in ["template_version", "template_move", "template_version_kept"] {
            try db.execute("ALTER TABLE reports DROP COLUMN \(column)")
        }
        for column in ["template_version", "set_aside"] {
            try db.execute("ALTER TABLE report_revisions DROP COLUMN \(column)")
        }
        try db.execute("DELETE FROM schema_migrations WHERE name = 'add-template-versions'")
        try db.setUserVersion(try db.userVersion() - 1)
    }

    @Test(
        "a store made before template versions gains them: each report is on the version held then, nothing else changes"
    )
    func upgrade() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("jqc.sqlite")
        let id: UUID
        do {
            let store = try LocalStore.open(at: path)
            try store.upsertTemplates([try Self.template(3, fields: Self.v1Fields)])
            id = try store.createReport(templateID: "T", facilityID: "F").localID
            try store.saveAnswer(id, field: "7", value: "kept")
        }
        do {
            let db = try Database(path: path, mode: .readWrite)
            try Self.undoTemplateVersions(db)
        }
        let store = try LocalStore.open(at: path)
        #expect(try store.appliedMigrations().suffix(2) == ["add-template-versions", "add-pass-threshold"])
        let report = try #require(try store.report(id))
        #expect(report.templateVersion == 3 && report.answers["7"] == "kept" && report.templateMove == nil)
        #expect(try store.template(id: "T", version: 3)?.schema.field("7") != nil)
        #expect(try store.revisions(of: id).count == 2)
    }

    @Test("every version is kept; the template is the newest seen; reports start on it", arguments: StoreKind.allCases)
    func versionsKept(kind: StoreKind) throws {
        let t = try TestStore(kind)
        try t.store.upsertTemplates([try Self.template(2, fields: Self.v2Fields)])
        try t.store.upsertTemplates([try Self.template(1, fields: Self.v1Fields)])
        #expect(
            try t.store.template(id: "T")?.version == 2, "an older version arriving later does not replace the newest")
        #expect(try t.store.template(id: "T", version: 1)?.schema.field("7") != nil)
        #expect(try t.store.template(id: "T", version: 2)?.schema.field("9") != nil)
        let report = try t.store.createReport(templateID: "T", templateVersion: 2, facilityID: "F")
        #expect(try t.store.report(report.localID)?.templateVersion == 2)
    }

    @Test(
        "drafts behind move in one go with a revision holding what was set aside; PENDING and kept reports stay",
        arguments: StoreKind.allCases)
    func move(kind: StoreKind) throws {
        let t = try TestStore(kind)
        try t.store.upsertTemplates([try Self.template(1, fields: Self.v1Fields)])
        var drafts: [Report] = []
        for note in ["a", "b"] {
            let draft = try t.store.createReport(templateID: "T", templateVersion: 1, facilityID: "F")
            try t.store.saveAnswer(draft.localID, field: "1", value: .string(note))
            drafts.append(try t.store.saveAnswer(draft.localID, field: "7", value: .string("old \(note)")))
        }
        let pending = try t.store.createReport(templateID: "T", templateVersion: 1, facilityID: "F")
        try t.store.saveAnswer(pending.localID, field: "7", value: "sent as completed")
        try t.store.apply(.complete, to: pending.localID)
        let kept = try t.store.createReport(templateID: "T", templateVersion: 1, facilityID: "F")
        try t.store.saveAnswer(kept.localID, field: "7", value: "stays")
        try t.store.keepTemplateVersion(kept.localID, true)

        try t.store.upsertTemplates([try Self.template(2, fields: Self.v2Fields)])
        #expect(try t.store.templatesWithDraftsBehind() == ["T"])
        let moved = try t.store.moveReports(ofTemplate: "T", plan: Self.plan)
        #expect(moved.map(\.report.localID) == drafts.map(\.localID))
        for draft in drafts {
            let now = try #require(try t.store.report(draft.localID))
            #expect(now.templateVersion == 2 && now.answers["7"] == nil && now.answers["1"] != nil)
            #expect(now.templateMove?.setAside.map(\.fieldID) == ["7"] && now.templateMove?.newRequired == ["9"])
            let last = try #require(try t.store.revisions(of: draft.localID).last)
            #expect(last.reason == .templateMove && last.templateVersion == 2)
            #expect(last.setAside.first?.answer == draft.answers["7"], "the set-aside answer is in the history")
        }
        let stillPending = try #require(try t.store.report(pending.localID))
        #expect(
            stillPending.templateVersion == 1 && stillPending.answers["7"] == "sent as completed"
                && stillPending.state == .pending)
        #expect(try t.store.report(kept.localID)?.templateVersion == 1)
        #expect(try t.store.templatesWithDraftsBehind().isEmpty)

        // An answer read for version 1 is refused on a draft that moved meanwhile; nothing changes.
        #expect(throws: StorageError.self) {
            try t.store.saveAnswer(drafts[1].localID, field: "7", value: "typed on v1", templateVersion: 1)
        }
        #expect(try t.store.report(drafts[1].localID)?.answers["7"] == nil)
        // The kept draft moves when asked by name; completing a moved draft ends its note.
        #expect(try t.store.moveReports(ofTemplate: "T", only: kept.localID, plan: Self.plan).count == 1)
        #expect(try t.store.report(kept.localID)?.keepsTemplateVersion == false)
        try t.store.saveAnswer(drafts[0].localID, field: "9", value: "x")
        let completed = try t.store.apply(.complete, to: drafts[0].localID)
        #expect(completed.templateMove == nil && completed.templateVersion == 2)
    }
}
