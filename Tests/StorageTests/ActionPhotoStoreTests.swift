import Foundation
import Models
import Storage
import Testing
import TestSupport

/// Photos of a person's action changes in the store: kept with their
/// change in one transaction, sent only once the change is recorded, their
/// files let go of once the server holds them, and never lost when the
/// server refuses the move they went with.
@Suite("Photos of action changes, in the store")
struct ActionPhotoStoreTests {
    /// The action as the server last sent it, in state `state`.
    static func action(_ id: String, state: String = "open") throws -> WireAction {
        try JSONDecoder().decode(
            WireAction.self,
            from: Data(
                """
                {"id": "\(id)", "facility_id": "F-100", "title": "Fix the tap", "severity": "high", "internal": false,
                 "state": "\(state)", "source": {"kind": "supervisor"},
                 "created_by": {"id": "U-1", "username": "supervisor", "display_name": "Sam"}, "photos": [],
                 "version": 1, "created_at": "2026-12-01T08:00:00Z", "updated_at": "2026-12-01T08:00:00Z",
                 "change": "g.1", "updates": []}
                """.utf8))
    }

    /// A photo of `change` whose file is in the store's photo folder.
    static func photo(_ t: TestStore, of change: WireActionChange, on actionID: String) throws -> ActionPhoto {
        let id = UUID()
        let file = try t.photoFiles.store(Data("jpeg bytes \(id)".utf8), as: id)
        return ActionPhoto(
            localID: id, requestID: change.id, actionID: actionID, fileName: file.fileName, byteSize: file.byteSize,
            sha256: file.sha256)
    }

    @Test(
        "a photo waits for its change to be recorded, goes once, and its file goes with it; a sweep of leftovers keeps it meanwhile",
        arguments: StoreKind.allCases)
    func sentAfterItsChange(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let change = WireActionChange(id: UUID(), state: .done, comment: "Fixed")
        let photo = try Self.photo(t, of: change, on: "A-1")
        try t.store.queueActionChange(change, on: "A-1", at: Date(), photos: [photo])
        #expect(try t.store.actionPhotos(ofChange: change.id) == [photo])
        #expect(try t.store.actionPhotosToSend().isEmpty, "not before the server recorded the change")
        try t.store.removePhotoLeftovers(olderThan: 0)
        #expect(t.photoFiles.contains(photo.fileName), "a photo still to send is no leftover")

        let queued = try #require(try t.store.queuedActionChanges().first)
        try t.store.actionChangeSent(queued.seq, answer: try Self.action("A-1", state: "done"))
        #expect(try t.store.actionPhotosToSend() == [photo])
        try t.store.actionPhotoSent(photo.localID)
        #expect(try t.store.actionPhotosToSend().isEmpty)
        #expect(!t.photoFiles.contains(photo.fileName), "the server holds it: the device lets its file go")
        #expect(try t.store.actionPhotoCounts() == (0, 0))
    }

    @Test(
        "a refused move's photos go with the comment kept from it, or with a comment of their own when it had none",
        arguments: StoreKind.allCases)
    func refusedMoveKeepsThePhotos(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let worded = WireActionChange(id: UUID(), state: .done, comment: "Fixed")
        let bare = WireActionChange(id: UUID(), state: .inProgress)
        let first = try Self.photo(t, of: worded, on: "A-1")
        let second = try Self.photo(t, of: bare, on: "A-1")
        try t.store.queueActionChange(worded, on: "A-1", at: Date(), photos: [first])
        try t.store.queueActionChange(bare, on: "A-1", at: Date(), photos: [second])
        let current = try Self.action("A-1", state: "verified")
        let (one, two) = try { () throws -> (QueuedActionChange, QueuedActionChange) in
            let queued = try t.store.queuedActionChanges()
            return (queued[0], queued[1])
        }()
        let kept = WireActionChange(id: UUID(), comment: "Fixed")
        try t.store.actionChangeRefused(
            one.seq, reason: "It is verified now.", current: current, keeping: kept, at: Date())
        try t.store.actionChangeRefused(
            two.seq, reason: "It is verified now.", current: current, keeping: nil, at: Date())

        let waiting = try t.store.queuedActionChanges()
        #expect(waiting.count == 2, "two comments: the words kept, and one carrying the photos of the bare move")
        #expect(try t.store.actionPhotos(ofChange: kept.id).map(\.localID) == [first.localID])
        let carrier = try #require(waiting.first { $0.requestID != kept.id })
        if case .update(_, let change) = carrier.content {
            #expect(change.comment == LocalStore.photosKeptComment && change.state == nil)
        }
        #expect(try t.store.actionPhotos(ofChange: carrier.requestID).map(\.localID) == [second.localID])
        #expect(try t.store.actionPhotoCounts() == (2, 0), "nothing lost, nothing refused")
    }

    @Test("a photo the server refuses for good stays, marked, and is not sent again", arguments: StoreKind.allCases)
    func refusedPhoto(kind: StoreKind) throws {
        let t = try TestStore(kind)
        let change = WireActionChange(id: UUID(), comment: "Before")
        let photo = try Self.photo(t, of: change, on: "A-1")
        try t.store.queueActionChange(change, on: "A-1", at: Date(), photos: [photo])
        let queued = try #require(try t.store.queuedActionChanges().first)
        try t.store.actionChangeSent(queued.seq, answer: try Self.action("A-1"))
        try t.store.actionPhotoRefused(photo.localID, reason: "Only the author may add photos to it.")
        #expect(try t.store.actionPhotosToSend().isEmpty)
        #expect(try t.store.actionPhotoCounts() == (0, 1))
        #expect(t.photoFiles.contains(photo.fileName), "a refused photo's file stays on the device")
    }
}
