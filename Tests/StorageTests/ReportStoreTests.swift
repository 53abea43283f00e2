import Foundation
import Testing
import Models
import Storage
import TestSupport
import SQLite

/// Reports in the store: drafts, autosaves, revisions, order, and what is refused.
@Suite("Reports in the store")
struct ReportStoreTests {
    @Test("a new report is a DRAFT with a creation sequence and its first revision", arguments: StoreKind.allCases)
    func create(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let parent = UUID()
        let report = try t.store.createReport(
            templateID: "t1", facilityID: "f1", areaID: "a2", assignmentID: "as9",
            parentLocalID: parent, parentServerID: "srv-p", followUpRequired: true,
            answers: Answers(["1": 3]))
        #expect(report.state == .draft)
        #expect(report.creationSequence == 1)
        #expect(report.parentLocalID == parent)
        #expect(report.parentServerID == "srv-p")
        #expect(report.followUpRequired)
        #expect(report.assignmentID == "as9" && report.areaID == "a2")
        #expect(try t.store.revisions(of: report.localID).map(\.answers) == [Answers(["1": 3])])
        let second = try t.store.createReport(templateID: "t1", facilityID: "f1")
        #expect(second.creationSequence == 2)
        let duplicate = #expect(throws: StorageError.self) {
            try t.store.createReport(localID: report.localID, templateID: "t1", facilityID: "f1")
        }
        #expect(duplicate?.code == .notAllowed)
    }

    @Test("every autosave is kept as a revision, in order", arguments: StoreKind.allCases)
    func everyRevisionKept(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let id = try t.store.createReport(templateID: "t1", facilityID: "f1").localID
        try t.store.saveAnswer(id, field: "1", value: 2)
        try t.store.saveAnswer(id, field: "1", value: 5)
        try t.store.saveAnswer(id, field: "2", value: "fail")
        try t.store.saveAnswer(id, field: "1", value: nil)
        let revisions = try t.store.revisions(of: id)
        #expect(revisions.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(
            revisions.map(\.answers) == [
                Answers(), Answers(["1": 2]), Answers(["1": 5]), Answers(["1": 5, "2": "fail"]), Answers(["2": "fail"]),
            ])
        #expect(revisions.allSatisfy { $0.state == .draft })
        #expect(try t.store.report(id)?.answers == Answers(["2": "fail"]))
    }

    @Test("saving an answer on a PENDING report is refused and changes nothing", arguments: StoreKind.allCases)
    func saveOnPendingRefused(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let id = try t.store.createReport(templateID: "t1", facilityID: "f1").localID
        try t.store.saveAnswer(id, field: "1", value: 4)
        let pending = try t.store.apply(.complete, to: id)
        let revisionsBefore = try t.store.revisions(of: id)
        let error = #expect(throws: StorageError.self) { try t.store.saveAnswer(id, field: "1", value: 1) }
        #expect(error?.code == .notAllowed)
        #expect(error?.message == "This report is PENDING and cannot be edited; only DRAFT and REJECTED reports can.")
        #expect(try t.store.report(id) == pending)
        #expect(try t.store.revisions(of: id) == revisionsBefore)
        let issue = #expect(throws: StorageError.self) {
            try t.store.addIssue(Issue(reportLocalID: id, severity: .low, description: "late"))
        }
        #expect(issue?.code == .notAllowed)
        #expect(try t.store.issues(ofReport: id).isEmpty)
    }

    @Test("an unknown report is not found, with its id in the message")
    func unknownReport() throws {
        let t = try TestStore(.memory)
        let id = UUID()
        let error = #expect(throws: StorageError.self) { try t.store.saveAnswer(id, field: "1", value: 1) }
        #expect(error?.code == .notFound)
        #expect(error?.message.contains(id.uuidString) == true)
        #expect(try t.store.report(id) == nil)
    }

    @Test("pending reports come in creation order, whatever the device clock says")
    func pendingInCreationOrder() throws {
        let t = try TestStore(.file)
        let ids = try (0..<5).map { _ in try t.store.createReport(templateID: "t1", facilityID: "f1").localID }
        // Completed in reverse order, and the device clock jumping around wildly.
        for id in ids.reversed() { try t.store.apply(.complete, to: id) }
        let db = try Database(path: t.directory.path("jqc.sqlite"), mode: .readWrite)
        db.setBusyTimeout(milliseconds: 5_000)
        let clock: [Double] = [4_000_000_000, -86_400, 0, 2_000_000_000, 1]
        for (id, seconds) in zip(ids, clock) {
            try db.run(
                "UPDATE reports SET updated_at_device = ?, completed_at_device = ? WHERE local_id = ?",
                [.real(seconds), .real(-seconds), .text(id.uuidString)])
        }
        #expect(try t.store.pendingReports().map(\.localID) == ids)
        #expect(try t.store.pendingReports(limit: 2).map(\.localID) == Array(ids.prefix(2)))
        #expect(try t.store.reports().map(\.localID) == ids.reversed())
        #expect(try t.store.reports(state: .pending).count == 5)
        #expect(try t.store.reports(state: .draft).isEmpty)
    }

    @Test("creation sequences never go back, even after the newest report is deleted", arguments: StoreKind.allCases)
    func sequencesNeverReused(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let first = try t.store.createReport(templateID: "t1", facilityID: "f1")
        let second = try t.store.createReport(templateID: "t1", facilityID: "f1")
        try t.store.apply(.discard, to: second.localID)
        let third = try t.store.createReport(templateID: "t1", facilityID: "f1")
        #expect(third.creationSequence > second.creationSequence)
        #expect(try t.store.reports().map(\.localID) == [third.localID, first.localID])
    }

    @Test("SQL metacharacters in values are stored literally", arguments: StoreKind.allCases)
    func sqlMetacharacters(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let hostile = "'); DROP TABLE reports; --"
        let report = try t.store.createReport(templateID: hostile, facilityID: "f\"1; DELETE FROM issues")
        try t.store.saveAnswer(report.localID, field: FieldID(hostile), value: .string("x' OR '1'='1"))
        let issue = try t.store.addIssue(
            Issue(reportLocalID: report.localID, severity: .critical, description: hostile))
        try t.store.setMeta("k'; --", "\0 nul and ' quote")
        #expect(try t.store.issues(ofReport: report.localID) == [issue])
        #expect(try t.store.allIssues().first?.description == hostile)
        let stored = try #require(try t.store.report(report.localID))
        #expect(stored.templateID == hostile)
        #expect(stored.facilityID == "f\"1; DELETE FROM issues")
        #expect(stored.answers[FieldID(hostile)] == .string("x' OR '1'='1"))
        #expect(try t.store.meta("k'; --") == "\0 nul and ' quote")
        #expect(try t.store.reports().count == 1)
    }

    @Test("score, follow-up, resume field and next attempt are kept", arguments: StoreKind.allCases)
    func sideFields(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let id = try t.store.createReport(templateID: "t1", facilityID: "f1").localID
        #expect(try t.store.saveAnswer(id, field: "1", value: 4, score: { _ in 87.5 }).score == 87.5)
        #expect(try t.store.setFollowUpRequired(id, true).followUpRequired)
        try t.store.setResumeField(id, "7")
        #expect(try t.store.resumeField(of: id) == "7")
        try t.store.setResumeField(id, nil)
        #expect(try t.store.resumeField(of: id) == nil)
        let due = Date(timeIntervalSince1970: 1_900_000_000)
        try t.store.setNextAttempt(id, at: due)
        #expect(try t.store.nextAttempt(of: id) == due)
        let stored = try #require(try t.store.report(id))
        #expect(stored.score == 87.5 && stored.followUpRequired)
    }

    @Test("issues and photos keep their order and sizes", arguments: StoreKind.allCases)
    func issuesAndPhotos(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let id = try t.store.createReport(templateID: "t1", facilityID: "f1").localID
        let a = try t.store.addIssue(Issue(reportLocalID: id, severity: .low, description: "scuff"))
        let b = try t.store.addIssue(Issue(reportLocalID: id, severity: .critical, description: "broken glass"))
        #expect(b.creationSequence > a.creationSequence)
        #expect(try t.store.issues(ofReport: id).map(\.description) == ["scuff", "broken glass"])
        let sizes: [Int64] = [1_000, 2_500]
        let photos = try sizes.map { size in
            try t.store.addPhoto(
                Photo(
                    reportLocalID: id, issueLocalID: b.localID, fileName: "\(UUID().uuidString).jpg",
                    originalByteSize: size * 4, byteSize: size, sha256: "ab"))
        }
        #expect(try t.store.photos(ofReport: id) == photos)
        #expect(try t.store.photoBytes(ofReport: id) == 3_500)
        #expect(try t.store.photos(uploadState: .pending).count == 2)
        try t.store.setUploadState(.uploaded, photo: photos[0].localID)
        #expect(try t.store.outstandingPhotoCount(ofReport: id) == 1)
        let badName = #expect(throws: StorageError.self) {
            try t.store.addPhoto(
                Photo(reportLocalID: id, fileName: "../../etc/passwd", originalByteSize: 1, byteSize: 1, sha256: "ab"))
        }
        #expect(badName?.code == .permission)
        let foreignIssue = #expect(throws: StorageError.self) {
            try t.store.addPhoto(
                Photo(
                    reportLocalID: id, issueLocalID: UUID(), fileName: "\(UUID().uuidString).jpg",
                    originalByteSize: 1, byteSize: 1, sha256: "ab"))
        }
        #expect(foreignIssue?.code == .notFound)
    }

    @Test("settings are kept; the device id is made once", arguments: StoreKind.allCases)
    func meta(kind: StoreKind) throws {
        let t = try TestStore(kind)
        #expect(try t.store.meta(MetaKey.lastSyncAt) == nil)
        try t.store.setMeta(MetaKey.lastSyncAt, "2025-01-01T00:00:00Z")
        try t.store.setMeta(MetaKey.lastSyncAt, "2025-01-02T00:00:00Z")
        #expect(try t.store.meta(MetaKey.lastSyncAt) == "2025-01-02T00:00:00Z")
        try t.store.setMeta(MetaKey.lastSyncAt, nil)
        #expect(try t.store.meta(MetaKey.lastSyncAt) == nil)
        #expect(try t.store.deviceID() == t.store.deviceID())
    }
}
