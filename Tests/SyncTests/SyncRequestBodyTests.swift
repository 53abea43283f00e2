import Foundation
import Models
import Storage
import Testing
import TestSupport
@testable import Sync

/// The sync request as the engine writes it from the store: the same JSON
/// the contract's `SyncRequest` encodes to, with the stored answers copied
/// as they are.
@Suite("A batch as it is sent")
struct SyncRequestBodyTests {
    let device = UUID()

    func completed(
        _ store: LocalStore, answers: Answers, parent: UUID? = nil, templateVersion: Int? = nil,
        score: Double? = nil
    ) throws -> UUID {
        let report = try store.createReport(
            templateID: "lobby-walk", templateVersion: templateVersion, facilityID: "F-100",
            areaID: "A-102", parentLocalID: parent, answers: answers)
        try store.apply(.complete, to: report.localID, score: { _ in score }, followUpRequired: parent == nil)
        return report.localID
    }

    /// The request the contract types encode for the same reports, as `ReportPayload` used to build it.
    func encoded(_ store: LocalStore, _ ids: [UUID]) throws -> JSONValue {
        var reports: [WireReport] = []
        for id in ids {
            let report = try #require(try store.report(id))
            let photos = try store.photos(ofReport: id)
            let issues = try store.issues(ofReport: id).map { issue in
                WireIssue(
                    localID: issue.localID, severity: issue.severity, description: issue.description,
                    photoLocalIDs: photos.filter { $0.issueLocalID == issue.localID }.map(\.localID))
            }
            let parentServerID =
                try report.parentServerID ?? report.parentLocalID.flatMap { try store.report($0)?.serverID }
            reports.append(
                WireReport(
                    localID: report.localID, serverID: report.serverID, baseRevision: report.lifecycle.baseRevision,
                    assignmentID: report.assignmentID, templateID: report.templateID,
                    templateVersion: report.templateVersion,
                    facilityID: report.facilityID, areaID: report.areaID, parentLocalID: report.parentLocalID,
                    parentServerID: parentServerID,
                    completedAtDevice: report.completedAtDevice.map(ReportPayload.rfc3339),
                    payload: WirePayload(
                        answers: report.answers.json, score: report.score, followUpRequired: report.followUpRequired),
                    issues: issues))
        }
        let request = SyncRequest(
            deviceID: device, appVersion: "0.1.0", schemaVersion: Report.currentSchemaVersion,
            reports: reports, merge: SyncRequest.mergeFields)
        return try JSONValue.parse(JSONEncoder().encode(request))
    }

    func written(_ store: LocalStore, _ ids: [UUID]) throws -> JSONValue {
        let body = SyncRequestBody(
            deviceID: device, appVersion: "0.1.0", schemaVersion: Report.currentSchemaVersion,
            reports: try store.outgoingReports(ids))
        return try JSONValue.parse(body.data)
    }

    @Test(
        "the request carries every report as the contract's types encode it: answers, score, issues with their photos, the parent's server id, template_version",
        arguments: StoreKind.allCases)
    func sameAsTheContractTypes(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let store = t.store
        let parent = try completed(store, answers: Answers(["entrance": "pass", "glass": 4]), score: 100)
        try store.apply([(parent, .accepted(serverID: "R-PARENT", revision: 1, photosOutstanding: 0))])
        let quoted = try completed(
            store,
            answers: Answers([
                "notes": "a \"quoted\" note\nwith a tab\t, a backslash \\ and caf\u{E9} \u{1F9F9}",
                "glass": 3.5, "list": [1, true, nil, ["k": "v"]],
            ]),
            parent: parent, templateVersion: 3, score: 0.9199999999999999)
        let unscored = try completed(store, answers: Answers())
        let withIssue = try store.createReport(
            templateID: "lobby-walk", facilityID: "F-100", answers: Answers(["entrance": "fail"])
        ).localID
        let issue = try store.addIssue(
            Issue(reportLocalID: withIssue, severity: .high, description: "Broken \"glass\"\u{0001}"))
        let photo = try store.addPhoto(
            Photo(
                reportLocalID: withIssue, issueLocalID: issue.localID, fileName: "\(UUID().uuidString).jpg",
                originalByteSize: 10, byteSize: 10, sha256: String(repeating: "a", count: 64)))
        _ = try store.addPhoto(
            Photo(
                reportLocalID: withIssue, fieldID: "14", fileName: "\(UUID().uuidString).jpg",
                originalByteSize: 10, byteSize: 10, sha256: String(repeating: "b", count: 64)))
        try store.apply(.complete, to: withIssue)
        let ids = [quoted, unscored, withIssue]

        let sent = try written(store, ids)
        #expect(sent == (try encoded(store, ids)))
        let reports = try #require(sent["reports"]?.arrayValue)
        #expect(reports.map { $0["local_id"]?.stringValue } == ids.map(\.wireString), "in the order asked")
        #expect(reports[0]["parent_server_id"] == "R-PARENT", "the parent's server id, taken from the parent")
        #expect(reports[0]["template_version"] == 3)
        #expect(reports[1]["payload"]?["score"] == .null)
        #expect(reports[1]["template_version"] == nil, "absent, as the contract's encoder leaves it")
        #expect(reports[2]["issues"]?.arrayValue?.first?["photo_local_ids"] == [.string(photo.localID.wireString)])
    }

    @Test("a report no longer on the device is left out; an empty batch is still a request")
    func leftOut() throws {
        let t = try TestStore(.memory)
        let kept = try completed(t.store, answers: Answers(["glass": 4]))
        let sent = try written(t.store, [UUID(), kept])
        #expect(sent["reports"]?.arrayValue?.map { $0["local_id"]?.stringValue } == [kept.wireString])
        let empty = try written(t.store, [])
        #expect(empty["reports"] == [])
        #expect(empty["device_id"] == .string(device.wireString))
        #expect(empty["merge"] == "fields")
    }
}
