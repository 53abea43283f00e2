import Foundation
import Models
import Storage

extension SyncEngine {
    /// The server's data generation against the one stored. Unchanged: nothing
    /// to do. None stored (the first 1.1 answer): stored. Another one: the
    /// server was restored from a backup, so every report held as accepted is
    /// asked for (`GET /reports/{server_id}`); one the server no longer has
    /// goes back in the queue as a new upload with the same local id, one it
    /// has without some photo this device uploaded gets those photos sent
    /// again; then the cursors are dropped and the generation stored. A
    /// check cut short stores nothing: the next cycle checks again.
    func checkGeneration(_ generation: String) async throws(StorageError) -> SyncCycle.Event {
        let stored = try store.meta(MetaKey.serverGeneration)
        if stored == generation { return .generationChecked(restore: nil) }
        guard stored != nil else {
            try store.setMeta(MetaKey.serverGeneration, generation)
            return .generationChecked(restore: nil)
        }
        var restore = ServerRestore()
        for report in try store.acceptedReports() {
            var missing: [UUID]?
            do throws(APIError) {
                let held = Set(try await client.serverReport(serverID: report.serverID).photos.map(\.localID))
                missing = report.uploadedPhotos.filter { !held.contains($0) }
            } catch where error.code == .notFound {
                missing = nil
            } catch {
                return .generationCheckFailed(SyncFailure(error))
            }
            if let photos = missing, photos.isEmpty { continue }
            do throws(StorageError) {
                try store.sendAgain(report.localID, photos: missing)
                if let photos = missing { restore.photosSentAgain += photos.count } else { restore.reportsSentAgain += 1 }
            } catch where error.code == .notAllowed || error.code == .notFound {
                // Another process moved or removed it meanwhile.
                continue
            }
        }
        try store.adoptServerGeneration(generation)
        return .generationChecked(restore: restore)
    }
}
