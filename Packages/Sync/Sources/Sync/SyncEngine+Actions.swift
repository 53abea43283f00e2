import Foundation
import Models
import Storage

/// What the actions step of one cycle did (contract 1.2).
public struct ActionCounts: Sendable, Hashable {
    /// Queued changes and new actions the server recorded.
    public var sent = 0
    /// Queued changes the server refused (kept, marked with why).
    public var refused = 0
    /// Actions the feed brought.
    public var pulled = 0
    /// Photos of recorded changes the server now holds.
    public var photosSent = 0
    /// Photos the server refused for good (kept, marked with why).
    public var photosRefused = 0

    /// No actions yet.
    public init(sent: Int = 0, refused: Int = 0, pulled: Int = 0, photosSent: Int = 0, photosRefused: Int = 0) {
        self.sent = sent
        self.refused = refused
        self.pulled = pulled
        self.photosSent = photosSent
        self.photosRefused = photosRefused
    }
}

/// How sending one queued change ended.
enum ActionSend: Sendable {
    /// The server recorded it: the action as it now stands.
    case recorded(WireAction)
    /// The server refused it for good: why, the action as it holds it, and a comment to keep.
    case refused(reason: String, current: WireAction?, keeping: WireActionChange?)
    /// The server could not be reached, or the session is over: the rest waits for the next cycle.
    case stop(SyncFailure)
}

/// Corrective actions in the sync cycle (contract 1.2), after the reviews:
/// the changes queued on this device are sent in the order they were made,
/// each once (the server records an id once; the store forgets a change
/// only with the server's answer to it), then the photos of the recorded
/// ones, then the feed of the actions this person may see is pulled after
/// the stored cursor.
extension SyncEngine {
    /// Pages of the actions feed pulled in one cycle at most; the rest comes next cycle.
    static let actionPagesPerCycle = 100

    /// Whether the server's last sync answer said contract 1.2 or later.
    var serverHasActions: Bool {
        SyncResponse.speaksContract12((try? store.meta(MetaKey.serverContract)) ?? nil)
    }

    /// Sends the queued changes, then pulls the feed; what it did, and the failure that stopped it.
    func syncActions(now: Date) async throws(StorageError) -> (ActionCounts, SyncFailure?) {
        var counts = ActionCounts()
        // A refused move's words are queued anew as a comment: the queue is read again until nothing new is in it.
        var tried = Set<Int64>()
        for _ in 0..<3 {
            let waiting = try store.queuedActionChanges().filter { !tried.contains($0.seq) }
            guard !waiting.isEmpty else { break }
            for change in waiting {
                tried.insert(change.seq)
                switch await send(change) {
                case .recorded(let action):
                    try store.actionChangeSent(change.seq, answer: action)
                    counts.sent += 1
                case .refused(let reason, let current, let keeping):
                    try store.actionChangeRefused(
                        change.seq, reason: reason, current: current, keeping: keeping, at: now)
                    counts.refused += 1
                case .stop(let failure):
                    return (counts, failure)
                }
            }
        }
        let photos = try await sendActionPhotos()
        counts.photosSent = photos.sent
        counts.photosRefused = photos.refused
        if let stop = photos.stop { return (counts, stop) }
        var cursor = try store.meta(MetaKey.actionsCursor)
        var restarted = false
        for _ in 0..<Self.actionPagesPerCycle {
            let page: ActionsResponse
            do throws(APIError) {
                page = try await client.actions(since: cursor)
            } catch {
                // A cursor of another generation of the server's data: pull everything again, once.
                guard error.isCursorInvalid, !restarted else { return (counts, SyncFailure(error)) }
                restarted = true
                try store.dropActionsCursor()
                cursor = nil
                continue
            }
            let next = page.cursor.isEmpty ? (cursor ?? "") : page.cursor
            try store.recordActions(page.actions, cursor: next)
            counts.pulled += page.actions.count
            guard page.more, next != (cursor ?? "") else { break }
            cursor = next
        }
        return (counts, nil)
    }

    /// Sends one queued change.
    func send(_ queued: QueuedActionChange) async -> ActionSend {
        switch queued.content {
        case .new(let action):
            do throws(APIError) {
                return .recorded(try await client.createAction(action))
            } catch {
                return Self.failed(error)
            }
        case .update(let id, let change):
            do throws(APIError) {
                switch try await client.updateAction(id: id, change) {
                case .recorded(let action):
                    return .recorded(action)
                case .stateRefused(let current, let error):
                    // The move is lost to what happened meanwhile; the words are not: they go as a comment.
                    let moved = change.state != nil || change.assignee != .absent || change.dueAt != .absent
                    let keeping =
                        moved ? change.comment.map { WireActionChange(id: UUID(), comment: $0) } : nil
                    return .refused(
                        reason: error.message + (keeping == nil ? "" : " Your comment is sent as a comment."),
                        current: current, keeping: keeping)
                }
            } catch {
                return Self.failed(error)
            }
        }
    }

    /// A failure that waits for the next cycle (the network, the server busy, the session), or a refusal for good.
    private static func failed(_ error: APIError) -> ActionSend {
        // No answer at all (the network, TLS), a busy server, or the session over: try again next cycle.
        if error.status == nil || error.isTransient || error.code == .authRequired {
            return .stop(SyncFailure(error))
        }
        return .refused(reason: error.message, current: nil, keeping: nil)
    }
}

/// Photos of action changes in the sync cycle: each sent after its change
/// was recorded, resumably (a `PATCH` cut short goes on from the bytes the
/// server holds), once.
extension SyncEngine {
    /// Sends the photos of recorded changes; how many went and were refused, and the failure that stopped it.
    func sendActionPhotos() async throws(StorageError) -> (sent: Int, refused: Int, stop: SyncFailure?) {
        var sent = 0
        var refused = 0
        for photo in try store.actionPhotosToSend() {
            do throws(APIError) {
                try await sendActionPhoto(photo)
            } catch {
                // No answer, a busy server or the session over: the rest waits. A file gone or a refusal: for good.
                if error.code != .fileUnreadable
                    && (error.status == nil || error.isTransient || error.code == .authRequired)
                {
                    return (sent, refused, SyncFailure(error))
                }
                try store.actionPhotoRefused(photo.localID, reason: error.message)
                refused += 1
                continue
            }
            try store.actionPhotoSent(photo.localID)
            sent += 1
        }
        return (sent, refused, nil)
    }

    /// One photo: its upload begun (or found), then its bytes from where the server stands, a few rounds at most.
    private func sendActionPhoto(_ photo: ActionPhoto) async throws(APIError) {
        guard let file = try? store.photoFiles?.url(for: photo.fileName).path else {
            throw APIError(.fileUnreadable, "The photo file of \(photo.localID.wireString) is gone from this device.")
        }
        for _ in 0..<2 {
            let start = try await client.beginActionUpload(
                actionID: photo.actionID, updateID: photo.requestID, localID: photo.localID, sha256: photo.sha256,
                byteSize: photo.byteSize)
            guard case .upload(let upload) = start else { return }
            var offset = upload.offset
            for _ in 0..<4 {
                do throws(APIError) {
                    switch try await client.appendUpload(
                        upload.url, offset: offset, file: file, byteSize: photo.byteSize)
                    {
                    case .stored: return
                    case .held(let held): offset = held
                    }
                } catch  where error.code == .notFound {
                    // The upload expired or was dropped: begin it again.
                    break
                }
            }
        }
        throw APIError(
            .connectionLost,
            "The photo \(photo.localID.wireString) did not reach the server whole; it is sent again next sync.")
    }
}
