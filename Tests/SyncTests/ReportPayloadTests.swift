import Foundation
import Models
import Storage
import Testing
import TestSupport
@testable import Sync

@Suite("A report as it is sent")
struct ReportPayloadTests {
    @Test("a report names the template version its answers were given to, in template_version")
    func templateVersion() throws {
        let t = try TestStore(.memory)
        let template = try Template.decode(["id": "T", "name": "Washroom QC", "version": 3,
                                            "form_schema": ["fields": [["id": 1, "type": "text"]]]]).get()
        try t.store.upsertTemplates([template])
        let report = try t.store.createReport(templateID: "T", templateVersion: 3, facilityID: "F")
        let wire = try #require(try ReportPayload.wire(report.localID, store: t.store))
        #expect(wire.templateVersion == 3)
        let sent = try JSONValue.parse(JSONEncoder().encode(wire))
        #expect(sent["template_version"] == 3)
    }
}
