import Foundation
import Testing
import Models
import Storage
import TestSupport

/// `LocalStore.apply` performs every effect the lifecycle returns, in the
/// same transaction as the new state, on memory and on a real file.
@Suite("Report lifecycle in the store")
struct ReportLifecycleStoreTests {
    /// What an image field does with an attached photo: its id joins the list.
    static func listing(_ existing: JSONValue?, _ id: String) -> JSONValue {
        .array((existing?.arrayValue ?? []) + [.string(id)])
    }

    /// A draft with two answers.
    private func draft(_ store: LocalStore) throws -> Report {
        let report = try store.createReport(templateID: "t1", facilityID: "f1", areaID: "a1", assignmentID: "as1")
        try store.saveAnswer(report.localID, field: "1", value: 4)
        return try store.saveAnswer(report.localID, field: "2", value: "pass")
    }

    /// A photo file written to the store's photo folder and recorded on the report.
    private func addPhoto(_ t: TestStore, to report: UUID, issue: UUID? = nil) throws -> Photo {
        let file = try t.photoFiles.store(Data("jpeg bytes \(UUID())".utf8))
        return try t.store.addPhoto(
            Photo(
                reportLocalID: report, fieldID: issue == nil ? "9" : nil, issueLocalID: issue,
                fileName: file.fileName, originalByteSize: 100, byteSize: file.byteSize,
                sha256: file.sha256))
    }

    @Test(
        "a photo listed in its image field is recorded with the field's new answer in one revision; over the cap, neither",
        arguments: StoreKind.allCases)
    func photoListedInField(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try draft(t.store)
        let file = try t.photoFiles.store(Data("jpeg bytes one".utf8))
        let photo = Photo(
            reportLocalID: report.localID, fieldID: "9", fileName: file.fileName, originalByteSize: 100,
            byteSize: file.byteSize, sha256: file.sha256)
        try t.store.addPhoto(photo, capBytes: file.byteSize, placeInAnswer: Self.listing)
        let listed = try #require(try t.store.report(report.localID))
        #expect(listed.answers["9"] == .array([.string(photo.localID.uuidString.lowercased())]))
        #expect(try t.store.revisions(of: report.localID).map(\.reason) == [.created, .autosave, .autosave, .autosave])

        let second = try t.photoFiles.store(Data("jpeg bytes two".utf8))
        let over = Photo(
            reportLocalID: report.localID, fieldID: "9", fileName: second.fileName, originalByteSize: 100,
            byteSize: second.byteSize, sha256: second.sha256)
        let error = #expect(throws: StorageError.self) {
            try t.store.addPhoto(over, capBytes: file.byteSize, placeInAnswer: Self.listing)
        }
        #expect(error?.code == .photoCapExceeded)
        #expect(try t.store.photos(ofReport: report.localID).map(\.localID) == [photo.localID])
        #expect(try t.store.report(report.localID)?.answers["9"] == listed.answers["9"])
        #expect(try t.store.revisions(of: report.localID).count == 4)
    }

    @Test("complete: DRAFT -> PENDING with a revision, queued", arguments: StoreKind.allCases)
    func complete(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try draft(t.store)
        let pending = try t.store.apply(.complete, to: report.localID)
        #expect(pending.state == .pending)
        #expect(pending.completedAtDevice != nil)
        #expect(try t.store.pendingReports().map(\.localID) == [report.localID])
        let revisions = try t.store.revisions(of: report.localID)
        #expect(revisions.map(\.reason) == [.created, .autosave, .autosave, .complete])
        #expect(revisions.last?.state == .pending)
        #expect(revisions.last?.answers == pending.answers)
        #expect(try t.store.report(report.localID) == pending)
    }

    @Test("many upload outcomes are recorded at once; a photo no longer here is skipped", arguments: StoreKind.allCases)
    func uploadOutcomesAtOnce(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try draft(t.store)
        let a = try addPhoto(t, to: report.localID), b = try addPhoto(t, to: report.localID),
            c = try addPhoto(t, to: report.localID)
        try t.store.setUploadStates(uploaded: [a.localID, b.localID, UUID()], failed: [c.localID: "413: too large"])
        let states = Dictionary(
            uniqueKeysWithValues: try t.store.photos(ofReport: report.localID).map { ($0.localID, $0.uploadState) })
        #expect(states == [a.localID: .uploaded, b.localID: .uploaded, c.localID: .failed])
        #expect(try t.store.uploadError(photo: c.localID) == "413: too large")
        #expect(try t.store.uploadError(photo: a.localID) == nil)
    }

    @Test(
        "accepted with photos outstanding stays PENDING; photosUploaded makes it SYNCED", arguments: StoreKind.allCases)
    func acceptedThenPhotos(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try draft(t.store)
        let photo = try addPhoto(t, to: report.localID)
        try t.store.apply(.complete, to: report.localID)
        let outstanding = try t.store.outstandingPhotoCount(ofReport: report.localID)
        #expect(outstanding == 1)
        let accepted = try t.store.apply(
            .accepted(serverID: "srv-7", revision: 3, photosOutstanding: outstanding), to: report.localID)
        #expect(accepted.state == .pending)
        #expect(accepted.serverID == "srv-7")
        #expect(accepted.lifecycle.acceptedRevision == 3)
        #expect(accepted.lifecycle.baseRevision == 3)
        #expect(try t.store.report(report.localID)?.lifecycle == accepted.lifecycle)

        try t.store.setUploadState(.uploaded, photo: photo.localID)
        let synced = try t.store.apply(.photosUploaded, to: report.localID)
        #expect(synced.state == .synced)
        #expect(synced.lifecycle.acceptedRevision == nil)
        #expect(try t.store.revisions(of: report.localID).last?.serverRevision == 3)
    }

    @Test(
        "the sync queue: pending reports in creation order with retry state, server id and photos not uploaded",
        arguments: StoreKind.allCases)
    func syncQueue(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let parent = try draft(t.store)
        try t.store.apply(.complete, to: parent.localID)
        let child = try t.store.createReport(templateID: "t1", facilityID: "f1", parentLocalID: parent.localID)
        let up = try addPhoto(t, to: child.localID), down = try addPhoto(t, to: child.localID)
        _ = try addPhoto(t, to: child.localID)
        try t.store.apply(.complete, to: child.localID)
        let stillDraft = try draft(t.store)
        try t.store.setUploadStates(uploaded: [up.localID], failed: [down.localID: "503"])
        try t.store.apply(.transportFailed(code: "OFFLINE", message: "No connection."), to: parent.localID)
        let due = Date(timeIntervalSince1970: 1_900_000_000)
        try t.store.setNextAttempt(parent.localID, at: due)
        try t.store.apply(.accepted(serverID: "srv-9", revision: 2, photosOutstanding: 2), to: child.localID)

        let queue = try t.store.pendingQueue()
        #expect(
            queue == [
                QueuedReport(localID: parent.localID, attemptCount: 1, nextAttemptAt: due),
                QueuedReport(
                    localID: child.localID, serverID: "srv-9", acceptedRevision: 2, parentLocalID: parent.localID,
                    outstandingPhotos: 2),
            ])
        #expect(!queue.map(\.localID).contains(stillDraft.localID))
        #expect(queue.map(\.localID) == (try t.store.pendingReports().map(\.localID)))
    }

    @Test("transport failure counts attempts and keeps the error; retry resets", arguments: StoreKind.allCases)
    func transportFailure(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try draft(t.store)
        try t.store.apply(.complete, to: report.localID)
        try t.store.apply(.transportFailed(code: "SYNC_OFFLINE", message: "Waiting for network."), to: report.localID)
        let failed = try t.store.apply(
            .transportFailed(code: "SYNC_OFFLINE", message: "Waiting for network."), to: report.localID)
        let stored = try #require(try t.store.report(report.localID))
        #expect(stored.lifecycle.attemptCount == 2)
        #expect(stored.lifecycle.lastError == ReportError(code: "SYNC_OFFLINE", message: "Waiting for network."))
        #expect(stored == failed)
        try t.store.setNextAttempt(report.localID, at: Date().addingTimeInterval(3600))
        let retried = try t.store.apply(.retryRequested, to: report.localID)
        #expect(retried.lifecycle.attemptCount == 0)
        #expect(
            try t.store.nextAttempt(of: report.localID) == nil,
            "a retry asked for is due at once, in the same transaction")
    }

    @Test(
        "completing a re-inspection clears its parent's follow-up request in the same transaction; a refused completion clears nothing",
        arguments: StoreKind.allCases)
    func reinspectionCompletesParent(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let parent = try t.store.createReport(templateID: "t1", facilityID: "f1", followUpRequired: true)
        try t.store.apply(.complete, to: parent.localID)
        let child = try t.store.createReport(templateID: "t1", facilityID: "f1", parentLocalID: parent.localID)
        try t.store.apply(.complete, to: child.localID)

        // The child is PENDING now: completing it again is refused, and the parent keeps its request.
        #expect(throws: StorageError.self) {
            try t.store.apply(.complete, to: child.localID, clearingFollowUpOf: parent.localID)
        }
        #expect(try t.store.report(parent.localID)?.followUpRequired == true)

        let second = try t.store.createReport(templateID: "t1", facilityID: "f1", parentLocalID: parent.localID)
        let completed = try t.store.apply(.complete, to: second.localID, clearingFollowUpOf: parent.localID)
        #expect(completed.state == .pending)
        #expect(try t.store.report(parent.localID)?.followUpRequired == false)
    }

    @Test("conflict keeps both; keep mine re-queues on the server's revision", arguments: StoreKind.allCases)
    func conflictKeepMine(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try draft(t.store)
        try t.store.apply(.complete, to: report.localID)
        let serverPayload: JSONValue = ["answers": ["1": 2, "2": "fail"], "score": 40.5, "follow_up_required": false]
        let conflicted = try t.store.apply(
            .conflict(serverRevision: 5, serverPayload: serverPayload), to: report.localID)
        #expect(conflicted.state == .conflict)
        let stored = try #require(try t.store.report(report.localID))
        #expect(stored.lifecycle.conflict == ServerRevision(revision: 5, payload: serverPayload))
        #expect(stored.answers == report.answers)
        #expect(stored.lifecycle.lastError?.code == "REPORT_CONFLICT")

        let mine = try t.store.apply(.keepMine, to: report.localID)
        #expect(mine.state == .pending)
        #expect(mine.lifecycle.baseRevision == 5)
        #expect(mine.lifecycle.conflict == nil)
        #expect(mine.answers == report.answers)
        #expect(try t.store.revisions(of: report.localID).last?.reason == .keepMine)
        #expect(try t.store.pendingReports().map(\.localID) == [report.localID])
    }

    @Test("keep mine merged per field saves the merged answers as a revision", arguments: StoreKind.allCases)
    func keepMineMerged(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try draft(t.store)
        try t.store.apply(.complete, to: report.localID)
        try t.store.apply(
            .conflict(serverRevision: 5, serverPayload: ["answers": ["1": 2, "2": "fail"]]), to: report.localID)
        let merged = Answers(["1": 2, "2": "pass"])
        let resolved = try t.store.apply(.keepMine, to: report.localID, answers: merged)
        #expect(resolved.answers == merged)
        #expect(try t.store.revisions(of: report.localID).last?.answers == merged)
    }

    @Test(
        "an answer, completing and a kept merge are stored with their score in the same write, as the queue hands them to sync",
        arguments: StoreKind.allCases)
    func scoreWithAnswers(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try draft(t.store)
        let passes: (Answers) -> Double? = { $0["2"] == "pass" ? 1 : 0 }
        let failed = try t.store.saveAnswer(report.localID, field: "2", value: "fail", score: passes)
        #expect(failed.score == 0)
        #expect(try t.store.report(report.localID)?.score == 0)
        try t.store.saveAnswer(report.localID, field: "2", value: "pass")
        let completed = try t.store.apply(.complete, to: report.localID, score: passes, followUpRequired: true)
        #expect(completed.state == .pending)
        let pending = try #require(try t.store.pendingReports().first)
        #expect(pending.score == 1)
        #expect(pending.followUpRequired)
        #expect(try t.store.revisions(of: report.localID).last?.answers["2"] == "pass")
        try t.store.apply(
            .conflict(serverRevision: 5, serverPayload: ["answers": ["1": 2, "2": "fail"], "score": 0]),
            to: report.localID)
        let resolved = try t.store.apply(
            .keepMine, to: report.localID, answers: Answers(["1": 4, "2": "pass"]), score: passes)
        #expect(resolved.score == 1)
        let queued = try #require(try t.store.pendingReports().first)
        #expect(queued.localID == report.localID)
        #expect(queued.score == 1)
        #expect(queued.answers["2"] == "pass")
    }

    @Test("take server adopts the server's answers; mine stay in the revisions", arguments: StoreKind.allCases)
    func takeServer(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try draft(t.store)
        try t.store.apply(.complete, to: report.localID)
        try t.store.apply(
            .conflict(serverRevision: 6, serverPayload: ["answers": ["1": 1, "3": "server only"], "score": 12.5]),
            to: report.localID)
        let taken = try t.store.apply(.takeServer, to: report.localID)
        #expect(taken.state == .synced)
        #expect(taken.answers == Answers(["1": 1, "3": "server only"]))
        #expect(taken.score == 12.5)
        #expect(taken.lifecycle.baseRevision == 6)
        let revisions = try t.store.revisions(of: report.localID)
        #expect(revisions.contains { $0.answers == report.answers })
        #expect(revisions.last?.reason == .takeServer)
        #expect(revisions.last?.serverRevision == 6)
        #expect(try t.store.report(report.localID) == taken)
    }

    @Test("amend then discard puts the synced answers back", arguments: StoreKind.allCases)
    func amendThenDiscard(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try draft(t.store)
        try t.store.apply(.complete, to: report.localID)
        let synced = try t.store.apply(
            .accepted(serverID: "srv-1", revision: 1, photosOutstanding: 0), to: report.localID)
        #expect(synced.state == .synced)
        let amended = try t.store.apply(.amend, to: report.localID)
        #expect(amended.state == .draft)
        #expect(amended.serverID == "srv-1")
        #expect(amended.lifecycle.baseRevision == 1)
        try t.store.saveAnswer(report.localID, field: "1", value: 1)
        try t.store.saveAnswer(report.localID, field: "4", value: "added while amending")

        let reverted = try t.store.apply(.discard, to: report.localID)
        #expect(reverted.state == .synced)
        #expect(reverted.answers == synced.answers)
        #expect(reverted.serverID == "srv-1")
        let revisions = try t.store.revisions(of: report.localID)
        #expect(revisions.contains { $0.answers["4"] == "added while amending" })
        #expect(revisions.last?.reason == .restoreSynced)
    }

    @Test(
        "discarding a plain draft deletes it with its revisions, issues, photo rows and files",
        arguments: StoreKind.allCases)
    func discardDraft(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try draft(t.store)
        let issue = try t.store.addIssue(
            Issue(reportLocalID: report.localID, severity: .high, description: "wet floor"))
        let photos = [try addPhoto(t, to: report.localID), try addPhoto(t, to: report.localID, issue: issue.localID)]
        let other = try t.store.createReport(templateID: "t1", facilityID: "f1")
        try t.store.addIssue(Issue(reportLocalID: other.localID, severity: .low, description: "other report"))
        for photo in photos { #expect(t.photoFiles.contains(photo.fileName)) }

        try t.store.apply(.discard, to: report.localID)
        #expect(try t.store.report(report.localID) == nil)
        #expect(try t.store.revisions(of: report.localID).isEmpty)
        #expect(try t.store.issues(ofReport: report.localID).isEmpty)
        #expect(try t.store.photos(ofReport: report.localID).isEmpty)
        for photo in photos { #expect(!t.photoFiles.contains(photo.fileName)) }
        #expect(try t.store.allIssues().map(\.description) == ["other report"])
        #expect(try t.store.report(other.localID) != nil)
    }

    @Test("expire is refused while a photo is not uploaded, and removes the copy after", arguments: StoreKind.allCases)
    func expire(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try draft(t.store)
        let photo = try addPhoto(t, to: report.localID)
        try t.store.apply(.complete, to: report.localID)
        // The server accepted it and the photo failed: a SYNCED report with a photo out is what BR-12 guards.
        try t.store.apply(.accepted(serverID: "srv-2", revision: 1, photosOutstanding: 1), to: report.localID)
        try t.store.apply(.photosUploaded, to: report.localID)
        try t.store.setUploadState(.failed, photo: photo.localID, error: "HTTP 503")

        let error = #expect(throws: StorageError.self) { try t.store.apply(.expire, to: report.localID) }
        #expect(error?.code == .notAllowed)
        #expect(error?.message.contains("1 photo not uploaded") == true)
        #expect(try t.store.report(report.localID)?.state == .synced)
        #expect(t.photoFiles.contains(photo.fileName))
        #expect(try t.store.uploadError(photo: photo.localID) == "HTTP 503")

        try t.store.setUploadState(.uploaded, photo: photo.localID)
        try t.store.apply(.expire, to: report.localID)
        #expect(try t.store.report(report.localID) == nil)
        #expect(try t.store.revisions(of: report.localID).isEmpty)
        #expect(!t.photoFiles.contains(photo.fileName))
    }

    @Test("an event the state does not allow is refused with the lifecycle's message, nothing changed")
    func refusedEvent() throws {
        let t = try TestStore(.memory)
        let report = try draft(t.store)
        let error = #expect(throws: StorageError.self) { try t.store.apply(.amend, to: report.localID) }
        #expect(error?.code == .notAllowed)
        #expect(error?.message == "This report is DRAFT; only SYNCED reports can be amended.")
        #expect(try t.store.report(report.localID) == report)
        let withAnswers = #expect(throws: StorageError.self) {
            try t.store.apply(.discard, to: report.localID, answers: Answers(["1": 1]))
        }
        #expect(withAnswers?.code == .notAllowed)
        #expect(try t.store.report(report.localID) == report)
    }

    @Test("rejected reports are editable again and completing re-queues them", arguments: StoreKind.allCases)
    func rejected(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let report = try draft(t.store)
        try t.store.apply(.complete, to: report.localID)
        let rejected = try t.store.apply(
            .rejected(code: "REPORT_INVALID", message: "field 2 is required"), to: report.localID)
        #expect(rejected.state == .rejected)
        #expect(try t.store.report(report.localID)?.lifecycle.lastError?.message == "field 2 is required")
        try t.store.saveAnswer(report.localID, field: "2", value: "fail")
        let again = try t.store.apply(.complete, to: report.localID)
        #expect(again.state == .pending)
        #expect(again.lifecycle.lastError == nil)
    }
}
