import Foundation
import Models
import Storage

extension SyncEngine {
    /// The server's data generation against the one stored. Unchanged: nothing
    /// to do. None stored (the first 1.1 answer): stored. Another one: the
    /// server was restored from a backup, so every report held as accepted is
    /// asked for (`GET /reports/{server_id}`); one the server no longer has
    /// goes back in the queue as a new upload with the same local id, one it
    /// holds at an older revision is sent again as a revision on top of it,
    /// one it has without some photo this device uploaded gets those photos
    /// sent again; then the cursors are dropped and the generation stored. A
    /// check cut short (a network that drops one request in ten makes one
    /// of hundreds of reports rare) keeps how far it got: the next cycle
    /// goes on from the report after the last one checked, so every cycle
    /// moves the check on and it ends however many reports there are.
    func checkGeneration(_ generation: String) async throws(StorageError) -> SyncCycle.Event {
        let stored = try store.meta(MetaKey.serverGeneration)
        if stored == generation { return .generationChecked(restore: nil) }
        guard stored != nil else {
            try store.setMeta(MetaKey.serverGeneration, generation)
            return .generationChecked(restore: nil)
        }
        var restore = ServerRestore()
        let progress = try store.meta(MetaKey.generationCheck)?.split(separator: " ")
        let cursor = progress?.count == 2 && progress?[0] == Substring(generation) ? Int64(progress?[1] ?? "") ?? 0 : 0
        var checked = cursor
        for (index, (sequence, report)) in try store.acceptedReports(after: cursor).enumerated() {
            defer { checked = sequence }
            // Now and then too, for a cycle killed in the middle.
            if index > 0, index % Self.generationCheckStep == 0 {
                try store.setMeta(MetaKey.generationCheck, "\(generation) \(checked)")
            }
            let repair: RestoreRepair
            do throws(APIError) {
                let held = try await client.serverReport(serverID: report.serverID)
                let photos = Set(held.photos.map(\.localID))
                let missing = report.uploadedPhotos.filter { !photos.contains($0) }
                if held.revision < report.baseRevision {
                    repair = .revision(serverRevision: held.revision, photos: missing)
                } else if !missing.isEmpty {
                    repair = .photos(missing)
                } else {
                    continue
                }
            } catch  where error.code == .notFound {
                repair = .report
            } catch {
                if checked > cursor { try store.setMeta(MetaKey.generationCheck, "\(generation) \(checked)") }
                return .generationCheckFailed(SyncFailure(error))
            }
            do throws(StorageError) {
                try store.sendAgain(report.localID, repair)
                switch repair {
                case .report: restore.reportsSentAgain += 1
                case .revision(_, let photos): restore.reportsSentAgain += 1; restore.photosSentAgain += photos.count
                case .photos(let photos): restore.photosSentAgain += photos.count
                }
            } catch  where error.code == .notAllowed || error.code == .notFound {
                // Another process moved or removed it meanwhile.
                continue
            }
        }
        try store.adoptServerGeneration(generation)
        return .generationChecked(restore: restore)
    }

    /// Reports checked between two notes of how far the check of a restored server got.
    static let generationCheckStep = 25
}
