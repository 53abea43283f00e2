import Foundation
import Models
import Storage

extension SyncEngine {
    /// Accepted reports still waiting for photos, with their photos not UPLOADED.
    func loadPhotoWork(run: inout SyncRun) throws(StorageError) -> [SyncCycle.PhotoWork] {
        var work: [SyncCycle.PhotoWork] = []
        for report in try store.pendingReports() where report.lifecycle.acceptedRevision != nil {
            guard let serverID = report.serverID else { continue }
            let photos = try store.photos(ofReport: report.localID).filter { $0.uploadState != .uploaded }
            for photo in photos { run.photos[photo.localID] = (photo, serverID) }
            work.append(SyncCycle.PhotoWork(reportLocalID: report.localID, photoLocalIDs: photos.map(\.localID)))
        }
        return work
    }

    /// Uploads photos concurrently, streamed from the photo store, a few
    /// groups at a time so progress can be shown. A file missing from the
    /// store fails that photo only.
    func upload(_ ids: [UUID], run: SyncRun) async -> [SyncCycle.PhotoOutcome] {
        var outcomes: [SyncCycle.PhotoOutcome] = []
        var ready: [(id: UUID, upload: PhotoUpload, bytes: Int64)] = []
        for id in ids {
            guard let (photo, serverID) = run.photos[id] else { continue }
            guard let url = try? store.photoFiles?.url(for: photo.fileName),
                  FileManager.default.isReadableFile(atPath: url.path) else {
                outcomes.append(SyncCycle.PhotoOutcome(photoLocalID: id, failure: SyncFailure(
                    kind: .refused, code: "PHOTO_FILE_MISSING",
                    message: "The photo file '\(photo.fileName)' is missing from this device; it cannot be uploaded.")))
                continue
            }
            ready.append((id, PhotoUpload(serverID: serverID, localID: photo.localID, fieldID: photo.fieldID?.rawValue,
                                          issueLocalID: photo.issueLocalID, sha256: photo.sha256, filePath: url.path),
                          photo.byteSize))
        }
        let totalBytes = ready.reduce(Int64(0)) { $0 + $1.bytes }
        var bytes: Int64 = 0
        // Large groups keep every upload slot busy; a group only sets how often progress is shown.
        let group = max(1, configuration.maxConcurrentUploads) * 16
        for start in stride(from: 0, to: ready.count, by: group) {
            let slice = Array(ready[start..<min(start + group, ready.count)])
            let results = await client.uploadPhotos(slice.map(\.upload), maxConcurrent: configuration.maxConcurrentUploads)
            for (item, result) in zip(slice, results) {
                switch result {
                case .success(let receipt):
                    bytes += item.bytes
                    outcomes.append(SyncCycle.PhotoOutcome(photoLocalID: item.id, byteSize: receipt.photo.byteSize))
                case .failure(let error):
                    outcomes.append(SyncCycle.PhotoOutcome(photoLocalID: item.id, failure: SyncFailure(error)))
                }
            }
            progress(.photos(done: start + slice.count, total: ready.count, bytes: bytes, totalBytes: totalBytes))
        }
        return outcomes
    }

    /// Records photo upload states, all in one transaction.
    func markPhotos(uploaded: [UUID], failed: [UUID: String]) throws(StorageError) {
        try store.setUploadStates(uploaded: uploaded, failed: failed)
    }
}
