import Foundation
import Testing
import Models
import Storage
import TestSupport

/// The cached reference data, and that clearing it spares the inspections.
@Suite("Reference cache")
struct ReferenceCacheTests {
    static let templateJSON = """
        {"id": 12, "name": "Washroom", "version": 3,
         "form_schema": {"fields": [
            {"id": 1, "type": "rating", "label": "Floors", "max": 5, "x_hint": {"nested": [1, 2.5, null]}},
            {"id": "2", "type": "pass_fail", "label": "Soap", "required": true}
         ], "layout": "grid", "x-vendor": {"colour": "blue"}}}
        """

    @Test("templates keep their raw schema verbatim, unknown keys included", arguments: StoreKind.allCases)
    func templatesVerbatim(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let template = try Template.decode(JSONValue.parse(Self.templateJSON)).get()
        try t.store.upsertTemplates([template])
        let stored = try #require(try t.store.template(id: "12"))
        #expect(stored == template)
        #expect(stored.rawSchema["x-vendor"] == ["colour": "blue"])
        #expect(stored.rawSchema["layout"] == "grid")
        let text = try #require(try t.store.templateSchemaText(id: "12"))
        #expect(try JSONValue.parse(text) == template.rawSchema)
        #expect(text.contains("\"x_hint\":{\"nested\":[1,2.5,null]}"))

        var renamed = template
        renamed.name = "Washroom v4"
        renamed.version = 4
        try t.store.upsertTemplates([renamed])
        #expect(try t.store.templates().map(\.name) == ["Washroom v4"])
        #expect(try t.store.template(id: "missing") == nil)
    }

    @Test("facilities, areas and assignments are replaced whole, with the cursor", arguments: StoreKind.allCases)
    func replace(kind: StoreKind) throws {
        let t = try TestStore(kind)
        try t.store.replaceFacilities(
            [
                Facility(id: "1", name: "Zeta Tower", address: "1 Main St"),
                Facility(id: "2", name: "alpha hall", projectName: "P"),
            ],
            areas: [
                Area(id: "10", facilityID: "1", name: "Lobby", areaType: "lobby"),
                Area(id: "11", facilityID: "1", name: "Restroom 2"),
                Area(id: "20", facilityID: "2", name: "Kitchen"),
            ])
        #expect(try t.store.facilities().map(\.name) == ["alpha hall", "Zeta Tower"])
        #expect(try t.store.facility(id: "1")?.address == "1 Main St")
        #expect(try t.store.areas(facilityID: "1").map(\.id) == ["10", "11"])
        try t.store.replaceFacilities([Facility(id: "3", name: "New")], areas: [])
        #expect(try t.store.facilities().map(\.id) == ["3"])
        #expect(try t.store.areas(facilityID: "1").isEmpty)

        try t.store.replaceAssignments(
            [
                Assignment(id: "a2", templateID: "12", facilityID: "3", dueAt: "2025-05-01T09:00:00Z"),
                Assignment(id: "a1", templateID: "12", facilityID: "3", areaID: "10"),
            ], cursor: "c1")
        try t.store.upsertAssignments(
            [
                Assignment(id: "a1", templateID: "12", facilityID: "3", status: .closed),
                Assignment(id: "a3", templateID: "12", facilityID: "3"),
            ], cursor: "c2")
        let assignments = try t.store.assignments()
        #expect(assignments.map(\.id) == ["a2", "a1", "a3"])
        #expect(assignments[1].status == .closed)
        #expect(assignments[0].dueAt == "2025-05-01T09:00:00Z")
        #expect(try t.store.meta(MetaKey.assignmentsCursor) == "c2")
    }

    @Test(
        "clearing the cache keeps reports, revisions, issues, photos and the templates of unsynced reports",
        arguments: StoreKind.allCases)
    func clearKeepsInspections(kind: StoreKind) throws {
        let t = try TestStore(kind)
        try t.store.replaceFacilities(
            [Facility(id: "1", name: "Tower")], areas: [Area(id: "10", facilityID: "1", name: "Lobby")])
        try t.store.upsertTemplates([try Template.decode(JSONValue.parse(Self.templateJSON)).get()])
        try t.store.replaceAssignments([Assignment(id: "a1", templateID: "12", facilityID: "1")], cursor: "c1")
        try t.store.setMeta(MetaKey.deviceID, UUID().uuidString)
        let report = try t.store.createReport(templateID: "12", facilityID: "1", areaID: "10", assignmentID: "a1")
        try t.store.saveAnswer(report.localID, field: "1", value: 4)
        let issue = try t.store.addIssue(Issue(reportLocalID: report.localID, severity: .medium, description: "dust"))
        let file = try t.photoFiles.store(Data("photo".utf8))
        let photo = try t.store.addPhoto(
            Photo(
                reportLocalID: report.localID, fieldID: "3", fileName: file.fileName,
                originalByteSize: 9, byteSize: file.byteSize, sha256: file.sha256))
        let before = try #require(try t.store.report(report.localID))

        #expect(try t.store.clearReferenceCache() == 1, "the draft's template is kept")

        #expect(try t.store.facilities().isEmpty)
        #expect(try t.store.areas(facilityID: "1").isEmpty)
        #expect(try t.store.templates().map(\.id) == ["12"], "a draft still needs its template")
        #expect(try t.store.assignments().isEmpty)
        #expect(try t.store.meta(MetaKey.assignmentsCursor) == nil)
        #expect(try t.store.meta(MetaKey.deviceID) != nil)
        #expect(try t.store.report(report.localID) == before)
        #expect(try t.store.revisions(of: report.localID).count == 2)
        #expect(try t.store.issues(ofReport: report.localID) == [issue])
        #expect(try t.store.photos(ofReport: report.localID) == [photo])
        #expect(t.photoFiles.contains(photo.fileName))
    }
}
