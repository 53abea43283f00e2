import Foundation
import Models
import Storage

/// How one photo's resumable upload ended.
private enum ResumableOutcome: Sendable {
    case stored(PhotoReceipt)
    case failed(APIError)
    /// The server has no resumable uploads: the multipart route instead.
    case noRoute
}

extension SyncEngine {
    /// Whether the server's last sync answer said contract 1.1: photos then go through `/uploads`.
    var speaksResumableUploads: Bool {
        SyncResponse.speaksContract11((try? store.meta(MetaKey.serverContract)) ?? nil)
    }

    /// Photos stored by the server are recorded UPLOADED in the store this
    /// many at a time while the next uploads are in flight, so that little
    /// is left to record once the last ends, and a run cut short leaves the
    /// photos the server holds recorded.
    static let recordUploadsEvery = 16

    /// Uploads photos through resumable uploads (contract 1.1), at most
    /// `maxConcurrentUploads` at once, each streamed from its file from the
    /// offset the server holds; a photo whose server has no such route goes
    /// by the multipart route instead. The `POST` that begins a photo's
    /// upload is made while the photo before it in the same slot is being
    /// sent, so that its bytes can follow at once. A photo's file is looked
    /// for when its upload is about to begin (a missing one fails that photo
    /// only). Photos stored are recorded UPLOADED every `recordUploadsEvery`
    /// while the others go on; `recorded` names them, and the rest are left
    /// to the cycle's `markPhotos`.
    func uploadResumably(_ photos: [(photo: Photo, serverID: String)]) async -> (
        outcomes: [SyncCycle.PhotoOutcome], recorded: Set<UUID>
    ) {
        let total = photos.count
        let totalBytes = photos.map(\.photo.byteSize).reduce(0, +)
        let limit = max(1, configuration.maxConcurrentUploads)
        let engine = self
        // Uploads kept from runs cut short, read once for every photo (a store that cannot be read: none).
        let kept: [UUID: PhotoUploadSession]
        do throws(StorageError) { kept = try store.uploadSessions() } catch { kept = [:] }
        // Each photo's file is looked for once, by whichever comes first: its POST made ahead, or its start.
        var looked: [Int: Result<PhotoUpload, SyncFailure>] = [:]
        func lookUp(_ index: Int) -> Result<PhotoUpload, SyncFailure> {
            if let known = looked[index] { return known }
            let found = uploadable(photos[index].photo, serverID: photos[index].serverID)
            looked[index] = found
            return found
        }
        var ahead: [Int: Task<Result<UploadStart, APIError>, Never>] = [:]
        defer { for task in ahead.values { task.cancel() } }
        func beginAhead(_ index: Int) {
            guard index < photos.count, ahead[index] == nil, case .success(let upload) = lookUp(index) else { return }
            let bytes = photos[index].photo.byteSize
            let client = self.client
            ahead[index] = Task {
                do throws(APIError) { return .success(try await client.beginUpload(upload, byteSize: bytes)) } catch {
                    return .failure(error)
                }
            }
        }
        return await withTaskGroup(of: (SyncCycle.PhotoOutcome, Int64).self) { group in
            var outcomes: [SyncCycle.PhotoOutcome] = []
            var unrecorded: [UUID] = []
            var recorded: Set<UUID> = []
            var next = 0
            var sentBytes: Int64 = 0
            func ended(_ outcome: SyncCycle.PhotoOutcome, bytes: Int64) {
                outcomes.append(outcome)
                if outcome.failure == nil {
                    sentBytes += bytes
                    unrecorded.append(outcome.photoLocalID)
                }
                progress(.photos(done: outcomes.count, total: total, bytes: sentBytes, totalBytes: totalBytes))
            }
            /// Starts the next photo whose file is there; a missing one ends at once and the one after is tried.
            func startNext() {
                while next < photos.count {
                    let index = next
                    next += 1
                    let begun = ahead.removeValue(forKey: index)
                    beginAhead(index + limit)
                    let (photo, serverID) = photos[index]
                    switch looked.removeValue(forKey: index) ?? uploadable(photo, serverID: serverID) {
                    case .failure(let failure):
                        ended(SyncCycle.PhotoOutcome(photoLocalID: photo.localID, failure: failure), bytes: 0)
                    case .success(let upload):
                        let bytes = photo.byteSize
                        let session = kept[upload.localID]
                        group.addTask {
                            (await engine.uploadOne(upload, byteSize: bytes, kept: session, begun: begun), bytes)
                        }
                        return
                    }
                }
            }
            for _ in 0..<limit { startNext() }
            for await (outcome, bytes) in group {
                ended(outcome, bytes: bytes)
                startNext()
                guard unrecorded.count >= Self.recordUploadsEvery else { continue }
                // A store that cannot write them now leaves them to the cycle's markPhotos, which says why.
                do throws(StorageError) {
                    try store.setUploadStates(uploaded: unrecorded, failed: [:])
                    recorded.formUnion(unrecorded)
                } catch {}
                unrecorded.removeAll(keepingCapacity: true)
            }
            return (outcomes, recorded)
        }
    }

    /// One photo: resumable, or by the multipart route when the server has no `/uploads`.
    /// `kept` is the upload kept for it, if one was; `begun` its upload's `POST`, made ahead, if it was.
    private func uploadOne(
        _ photo: PhotoUpload, byteSize: Int64, kept: PhotoUploadSession?,
        begun: Task<Result<UploadStart, APIError>, Never>?
    ) async -> SyncCycle.PhotoOutcome {
        let result: Result<PhotoReceipt, APIError>
        switch await resume(photo, byteSize: byteSize, kept: kept, begun: await begun?.value) {
        case .stored(let receipt):
            result = .success(receipt)
        case .failed(let error):
            result = .failure(error)
        case .noRoute:
            do throws(APIError) { result = .success(try await client.uploadPhoto(photo)) } catch {
                result = .failure(error)
            }
        }
        switch result {
        case .success(let receipt):
            return SyncCycle.PhotoOutcome(photoLocalID: photo.localID, byteSize: receipt.photo.byteSize)
        case .failure(let error):
            return SyncCycle.PhotoOutcome(photoLocalID: photo.localID, failure: SyncFailure(error))
        }
    }

    /// The upload of one photo from where the server has got to: an upload
    /// begun earlier (this run or a killed one) is asked its offset with
    /// `HEAD` first; after a broken `PATCH` the offset is asked again and
    /// only the missing bytes are sent. It keeps going while each attempt
    /// moves the offset on, and gives up after `stalledAttempts` in a row that
    /// do not (the cycle's backoff then applies). A gone upload (404
    /// `UPLOAD_GONE`) is begun afresh; a hash mismatch ends it as the
    /// multipart route's does. Where the upload continues is kept in the
    /// store only once an attempt ended short of the last byte: an upload
    /// begun and finished in one go writes nothing, and one cut short before
    /// that is found again by the same `POST`, which answers its url and
    /// offset. `begun`, the answer to a `POST` made ahead, stands for the
    /// first `POST` when no upload of the photo is kept.
    private func resume(
        _ photo: PhotoUpload, byteSize: Int64, kept keptSession: PhotoUploadSession?,
        begun: Result<UploadStart, APIError>? = nil
    ) async -> ResumableOutcome {
        let stalledAttempts = 3
        var session = keptSession
        var kept = session != nil
        func keep(_ current: PhotoUploadSession) {
            session = current
            kept = remember(current, photo) || kept
        }
        func drop() {
            session = nil
            if kept { forget(photo) }
            kept = false
        }
        var known: Int64?
        var ahead = begun
        var stalled = 0
        var lastError = APIError(.connectionLost, "The upload of photo \(photo.localID.wireString) made no progress.")
        while stalled < stalledAttempts {
            do throws(APIError) {
                guard let current = session else {
                    let start: UploadStart
                    if let answered = ahead {
                        ahead = nil
                        start = try answered.get()
                    } else {
                        start = try await client.beginUpload(photo, byteSize: byteSize)
                    }
                    switch start {
                    case .photo(let receipt):
                        drop()
                        return .stored(receipt)
                    case .upload(let begun):
                        session = PhotoUploadSession(url: begun.url, offset: begun.offset)
                        known = begun.offset
                    }
                    continue
                }
                let offset: Int64
                if let known { offset = known } else { offset = try await client.uploadOffset(current.url) }
                if offset > byteSize {
                    // More than the photo: not this photo's upload; it begins afresh.
                    drop()
                    known = nil
                    stalled += 1
                    continue
                }
                // At the end (the answer to the last bytes was lost, or the server could not
                // store the photo then), a PATCH of no bytes asks the server for the photo.
                known = nil
                let before = offset
                switch try await client.appendUpload(
                    current.url, offset: offset, file: photo.filePath, byteSize: byteSize)
                {
                case .stored(let receipt):
                    drop()
                    return .stored(receipt)
                case .held(let held):
                    known = held
                    stalled = held > before ? 0 : stalled + 1
                    keep(PhotoUploadSession(url: current.url, offset: held))
                }
            } catch {
                lastError = error
                if error.status == 404 && session == nil && !error.serverSaid(.uploadGone) { return .noRoute }
                if error.code == .notFound {
                    // Expired or dropped: a new upload from the first byte.
                    drop()
                    known = nil
                    stalled += 1
                    continue
                }
                guard error.code == .connectionLost || error.code == .offline || error.code == .serverError else {
                    if error.code == .hashMismatch { drop() }
                    return .failed(error)
                }
                // A break: the server says how far the bytes got before anything is sent again.
                let before = session?.offset ?? 0
                known = nil
                if let current = session {
                    do throws(APIError) {
                        let held = try await client.uploadOffset(current.url)
                        known = held
                        stalled = held > before ? 0 : stalled + 1
                        keep(PhotoUploadSession(url: current.url, offset: held))
                    } catch {
                        lastError = error
                        stalled += 1
                        if error.code == .notFound { drop() }
                    }
                } else {
                    stalled += 1
                }
            }
        }
        return .failed(lastError)
    }

    /// Keeps where an upload continues, true when kept; a store that cannot is not fatal (the upload asks the server again).
    private func remember(_ session: PhotoUploadSession, _ photo: PhotoUpload) -> Bool {
        do throws(StorageError) { try store.saveUploadSession(session, photo: photo.localID) } catch { return false }
        return true
    }

    private func forget(_ photo: PhotoUpload) {
        do throws(StorageError) { try store.forgetUploadSession(photo: photo.localID) } catch { return }
    }
}
