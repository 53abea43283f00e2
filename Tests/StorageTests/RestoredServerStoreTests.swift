import Foundation
import Testing
import Models
import Storage
import TestSupport

/// What a device does in its store when its server was restored from a
/// backup: the reports it holds as accepted, and sending again what the
/// server lost, each in one transaction.
@Suite("A restored server, in the store")
struct RestoredServerStoreTests {
    /// A SYNCED report with two uploaded photos.
    private func synced(_ t: TestStore) throws -> (Report, [Photo]) {
        let report = try t.store.createReport(templateID: "t1", facilityID: "f1", areaID: "a1", assignmentID: nil)
        try t.store.saveAnswer(report.localID, field: "1", value: 4)
        var photos: [Photo] = []
        for _ in 0..<2 {
            let file = try t.photoFiles.store(Data("jpeg bytes \(UUID())".utf8))
            photos.append(
                try t.store.addPhoto(
                    Photo(
                        reportLocalID: report.localID, fieldID: "9", fileName: file.fileName,
                        originalByteSize: 100, byteSize: file.byteSize, sha256: file.sha256)))
        }
        try t.store.apply(.complete, to: report.localID)
        try t.store.apply(.accepted(serverID: "srv-1", revision: 1, photosOutstanding: 2), to: report.localID)
        for photo in photos { try t.store.setUploadState(.uploaded, photo: photo.localID) }
        return (try t.store.apply(.photosUploaded, to: report.localID), photos)
    }

    @Test(
        "a report the server lost goes back in the queue as never sent, every photo to upload again",
        arguments: StoreKind.allCases)
    func reportLost(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let (report, photos) = try synced(t)
        #expect(
            try t.store.acceptedReports() == [
                AcceptedReport(
                    localID: report.localID, serverID: "srv-1", baseRevision: 1, uploadedPhotos: photos.map(\.localID))
            ])
        let again = try t.store.sendAgain(report.localID, .report)
        #expect(again.state == .pending && again.serverID == nil && again.lifecycle.baseRevision == nil)
        let queued = try #require(try t.store.pendingQueue().first)
        #expect(queued.localID == report.localID && queued.acceptedRevision == nil && queued.outstandingPhotos == 2)
        #expect(try t.store.acceptedReports().isEmpty)
    }

    @Test(
        "a re-inspection of a parent sent again names the parent's new server id, none before it is accepted again",
        arguments: StoreKind.allCases)
    func reinspectionOfAParentSentAgain(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let (parent, _) = try synced(t)
        let child = try t.store.createReport(
            templateID: "t1", facilityID: "f1", areaID: "a1", assignmentID: nil,
            parentLocalID: parent.localID, parentServerID: "srv-1")
        try t.store.apply(.complete, to: child.localID)
        #expect(try t.store.outgoingReports([child.localID]).first?.parentServerID == "srv-1")
        _ = try t.store.sendAgain(parent.localID, .report)
        let waiting = try #require(try t.store.outgoingReports([child.localID]).first)
        #expect(waiting.parentServerID == nil, "the lost server id is not sent; the parent's local id names it")
        #expect(waiting.parentLocalID == parent.localID)
        try t.store.apply(.accepted(serverID: "srv-9", revision: 1, photosOutstanding: 0), to: parent.localID)
        #expect(try t.store.outgoingReports([child.localID]).first?.parentServerID == "srv-9")
    }

    @Test(
        "a report the server holds without a photo waits for that photo again, keeping its server id",
        arguments: StoreKind.allCases)
    func photoLost(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let (report, photos) = try synced(t)
        let again = try t.store.sendAgain(report.localID, .photos([photos[1].localID]))
        #expect(again.state == .pending && again.serverID == "srv-1" && again.lifecycle.acceptedRevision == 1)
        #expect(try t.store.outstandingPhotoCount(ofReport: report.localID) == 1)
        #expect(try t.store.photos(uploadState: .pending).map(\.localID) == [photos[1].localID])
    }

    @Test("taking a new generation drops the reviews and assignments cursors", arguments: StoreKind.allCases)
    func newGeneration(kind: StoreKind) throws {
        let t = try TestStore(kind)
        try t.store.setMeta(MetaKey.reviewsCursor, "c-9")
        try t.store.setMeta(MetaKey.assignmentsCursor, "a-9")
        try t.store.adoptServerGeneration("g2")
        #expect(try t.store.meta(MetaKey.serverGeneration) == "g2")
        #expect(try t.store.meta(MetaKey.reviewsCursor) == nil)
        #expect(try t.store.meta(MetaKey.assignmentsCursor) == nil)
    }
}

extension RestoredServerStoreTests {
    @Test(
        "a report the server holds at an older revision is queued again on top of it, with the photos it lacks",
        arguments: StoreKind.allCases)
    func revisionLost(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let (report, photos) = try synced(t)
        try t.store.apply(.amend, to: report.localID)
        try t.store.apply(.complete, to: report.localID)
        try t.store.apply(.accepted(serverID: "srv-1", revision: 2, photosOutstanding: 0), to: report.localID)
        #expect(try t.store.acceptedReports().first?.baseRevision == 2)
        let again = try t.store.sendAgain(report.localID, .revision(serverRevision: 1, photos: [photos[0].localID]))
        #expect(again.state == .pending && again.serverID == "srv-1" && again.lifecycle.baseRevision == 1)
        let queued = try #require(try t.store.pendingQueue().first)
        #expect(queued.acceptedRevision == nil && queued.outstandingPhotos == 1, "sent as a revision, then its photo")
    }
}

extension RestoredServerStoreTests {
    @Test(
        "an amendment waiting to go is checked too: sent on top of the older revision the server holds, or as a new report when the server lost it",
        arguments: StoreKind.allCases)
    func amendmentWaiting(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let (report, _) = try synced(t)
        try t.store.apply(.amend, to: report.localID)
        try t.store.apply(.complete, to: report.localID)
        try t.store.apply(.accepted(serverID: "srv-1", revision: 2, photosOutstanding: 0), to: report.localID)
        try t.store.apply(.amend, to: report.localID)
        try t.store.apply(.complete, to: report.localID)
        #expect(
            try t.store.acceptedReports().map(\.baseRevision) == [2],
            "the amendment waiting to go is held on revision 2")
        let behind = try t.store.sendAgain(report.localID, .revision(serverRevision: 1, photos: []))
        #expect(behind.state == .pending && behind.lifecycle.baseRevision == 1 && behind.serverID == "srv-1")
        let lost = try t.store.sendAgain(report.localID, .report)
        #expect(lost.state == .pending && lost.serverID == nil && lost.lifecycle.baseRevision == nil)
    }
}
