import Foundation
import Models
import Storage
import Synchronization

extension SyncEngine {
    /// Accepted reports still waiting for photos, with their photos not UPLOADED.
    func loadPhotoWork(run: inout SyncRun) throws(StorageError) -> [SyncCycle.PhotoWork] {
        var work: [SyncCycle.PhotoWork] = []
        for report in try store.pendingQueue() where report.acceptedRevision != nil {
            guard let serverID = report.serverID else { continue }
            let photos = try store.photos(ofReport: report.localID).filter { $0.uploadState != .uploaded }
            for photo in photos { run.photos[photo.localID] = (photo, serverID) }
            work.append(SyncCycle.PhotoWork(reportLocalID: report.localID, photoLocalIDs: photos.map(\.localID)))
        }
        return work
    }

    /// Uploads photos concurrently, streamed from the photo store, all in one
    /// run of the transport (its connections stay open and every slot stays
    /// busy), with progress as each ends. A file missing from the store fails
    /// that photo only. Through resumable uploads, each photo's file is looked
    /// for when its upload is about to begin, and the photos stored are
    /// recorded as their uploads end (`run.recordedUploads`).
    func upload(_ ids: [UUID], run: inout SyncRun) async -> [SyncCycle.PhotoOutcome] {
        let photos = ids.compactMap { id in run.photos[id] }
        guard !photos.isEmpty else { return [] }
        if speaksResumableUploads {
            let (outcomes, recorded) = await uploadResumably(photos)
            run.recordedUploads.formUnion(recorded)
            return outcomes
        }
        var outcomes: [SyncCycle.PhotoOutcome] = []
        var ready: [(id: UUID, upload: PhotoUpload, bytes: Int64)] = []
        for (photo, serverID) in photos {
            switch uploadable(photo, serverID: serverID) {
            case .success(let upload): ready.append((photo.localID, upload, photo.byteSize))
            case .failure(let failure):
                outcomes.append(SyncCycle.PhotoOutcome(photoLocalID: photo.localID, failure: failure))
            }
        }
        guard !ready.isEmpty else { return outcomes }
        let sizes = ready.map(\.bytes)
        let total = ready.count
        let totalBytes = sizes.reduce(0, +)
        let sent = Mutex<(done: Int, bytes: Int64)>((0, 0))
        let progress = self.progress
        let results = await client.uploadPhotos(ready.map(\.upload), maxConcurrent: configuration.maxConcurrentUploads)
        { index, uploaded in
            let now = sent.withLock { sent in
                sent.done += 1
                if uploaded { sent.bytes += sizes[index] }
                return sent
            }
            progress(.photos(done: now.done, total: total, bytes: now.bytes, totalBytes: totalBytes))
        }
        for (item, result) in zip(ready, results) {
            switch result {
            case .success(let receipt):
                outcomes.append(SyncCycle.PhotoOutcome(photoLocalID: item.id, byteSize: receipt.photo.byteSize))
            case .failure(let error):
                outcomes.append(SyncCycle.PhotoOutcome(photoLocalID: item.id, failure: SyncFailure(error)))
            }
        }
        return outcomes
    }

    /// The photo as an upload, streamed from its file in the photo store; a
    /// file missing or unreadable fails that photo (`photoFileMissing`).
    func uploadable(_ photo: Photo, serverID: String) -> Result<PhotoUpload, SyncFailure> {
        guard let url = try? store.photoFiles?.url(for: photo.fileName),
            FileManager.default.isReadableFile(atPath: url.path)
        else {
            return .failure(
                SyncFailure(
                    kind: .refused, code: .photoFileMissing,
                    message: "The photo file '\(photo.fileName)' is missing from this device; it cannot be uploaded."))
        }
        return .success(
            PhotoUpload(
                serverID: serverID, localID: photo.localID, fieldID: photo.fieldID?.rawValue,
                issueLocalID: photo.issueLocalID, sha256: photo.sha256, filePath: url.path))
    }

    /// Records photo upload states, all in one transaction, but for the
    /// uploaded photos `recorded` already holds (written as their uploads ended).
    func markPhotos(uploaded: [UUID], failed: [UUID: String], recorded: Set<UUID>) throws(StorageError) {
        try store.setUploadStates(uploaded: uploaded.filter { !recorded.contains($0) }, failed: failed)
    }
}
