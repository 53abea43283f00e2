import APIRoutes
import Models
import ServerStore

/// The links every capability draws between a caller, a report and its
/// photos: who may see a report, and where a stored photo is fetched.
extension RouteCapability {
    /// The report if it exists and the caller may see it: 404 otherwise (also for another inspector's).
    func reportVisible(_ serverID: String, to caller: Caller, in session: any StorageSession) throws(ServerError)
        -> StoredReport
    {
        guard let report = try session.report(serverID: serverID) else {
            throw ServerError.notFound("no report '\(serverID)'")
        }
        // Another inspector's report answers as an unknown one: its existence is not told.
        guard caller.isSupervisor || report.ownerID == caller.user.id else {
            throw ServerError.notFound("no report '\(serverID)'")
        }
        return report
    }

    /// The contract's path of a stored photo.
    func photoURL(_ photo: StoredPhoto) -> String {
        APIRoute.downloadPhoto.fullPath(photo.serverID, photo.localID.uuidString.lowercased())
    }

    /// A stored photo as an upload's answer names it.
    func uploaded(_ photo: StoredPhoto) -> PhotoUploadResponse.UploadedPhoto {
        PhotoUploadResponse.UploadedPhoto(localID: photo.localID, url: photoURL(photo), byteSize: photo.byteSize)
    }
}
