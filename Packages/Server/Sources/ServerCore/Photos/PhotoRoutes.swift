import Foundation
import Models
import ServerStore

struct PhotoRoutes: RouteCapability {
    let context: ServerContext

    /// `POST /reports/{server_id}/photos`: multipart `local_id`, `sha256`,
    /// `file` (and optional `field_id`, `issue_local_id`). 201 the first
    /// time, 200 with the same body after; 413 over the limit; 422 when the
    /// bytes do not hash to `sha256`; 415 when they are not a JPEG or PNG.
    func uploadPhoto(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let serverID = try input.parameter("server_id")
        guard case .multipart(let body) = input.request.body else {
            throw ServerError.badRequest("the photo must be sent as multipart/form-data")
        }
        guard let localText = body.fields["local_id"],
            let localID = UUID(uuidString: localText.trimmingCharacters(in: .whitespaces))
        else {
            throw ServerError.badRequest("the part 'local_id' must be a UUID")
        }
        guard let claimed = body.fields["sha256"]?.trimmingCharacters(in: .whitespacesAndNewlines),
            Hex.isSHA256(claimed)
        else {
            throw ServerError.badRequest("the part 'sha256' must be the 64 hex digits of the file's SHA-256")
        }
        var issueLocalID: UUID?
        if let text = body.fields["issue_local_id"], !text.isEmpty {
            guard let id = UUID(uuidString: text) else {
                throw ServerError.badRequest("the part 'issue_local_id' must be a UUID")
            }
            issueLocalID = id
        }
        let fieldID = body.fields["field_id"].flatMap { $0.isEmpty ? nil : $0 }

        // Ownership first: nothing about someone else's report is revealed or stored.
        let existing = try store.read { session -> StoredPhoto? in
            _ = try photoTarget(serverID, caller: caller, in: session)
            return try session.photo(localID: localID)
        }
        if let existing {
            guard existing.serverID == serverID else {
                throw ServerError.badRequest("photo \(localID) already belongs to another report")
            }
            return .answer(PhotoUploadResponse(photo: uploaded(existing)))
        }
        guard let file = body.file else { throw ServerError.badRequest("the part 'file' is missing") }
        guard file.sha256 == claimed.lowercased() else {
            throw ServerError.unprocessable(
                code: .photoHashMismatch,
                "the file's SHA-256 is \(file.sha256), not the \(claimed) sent; upload it again")
        }
        guard PhotoKind.of(descriptor: file.descriptor) != nil else { throw PhotoKind.refusal() }
        // The quotas before anything is stored: photos of this report, and the caller's bytes.
        let (held, used) = try store.read { session in
            (
                try session.photoCount(serverID: serverID),
                try session.usage(userID: caller.user.id, day: Quotas.day(Date())).bytes
            )
        }
        try config.quotas.checkPhoto(serverID, held: held, used: used, adding: file.byteSize)
        try photos.keep(descriptor: file.descriptor, sha256: file.sha256, byteSize: file.byteSize)
        let photo = StoredPhoto(
            localID: localID, serverID: serverID, fieldID: fieldID, issueLocalID: issueLocalID,
            sha256: file.sha256, byteSize: file.byteSize)
        let stored = try store.write { session -> (StoredPhoto, Bool) in
            // Two uploads of the same photo may race; the second answers as a repeat.
            if let raced = try session.photo(localID: localID) { return (raced, false) }
            try session.insertPhoto(photo, uploadedBy: caller.user.id)
            try session.addUsage(userID: caller.user.id, bytes: photo.byteSize, revisions: 0, day: Quotas.day(Date()))
            return (photo, true)
        }
        if stored.1 { metrics.photoStored() }
        return .answer(PhotoUploadResponse(photo: uploaded(stored.0)), status: stored.1 ? 201 : 200)
    }

    /// `GET /reports/{server_id}/photos/{local_id}`: the JPEG bytes.
    func downloadPhoto(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let serverID = try input.parameter("server_id")
        let text = try input.parameter("local_id")
        guard let localID = UUID(uuidString: text) else { throw ServerError.notFound("no photo '\(text)'") }
        let photo = try store.read { session -> StoredPhoto? in
            _ = try reportVisible(serverID, to: caller, in: session)
            return try session.photo(localID: localID)
        }
        return try served(
            photo?.serverID == serverID ? photo.map { ($0.sha256, $0.byteSize) } : nil,
            otherwise: ServerError.notFound("no photo '\(text)' on report '\(serverID)'"))
    }

    /// The bytes of a stored photo (its hash and size), or `otherwise` when there is none or its bytes are gone.
    private func served(_ photo: (sha256: String, byteSize: Int64)?, otherwise: ServerError) throws(ServerError)
        -> Reply
    {
        guard let photo, let descriptor = try photos.open(sha256: photo.sha256, byteSize: photo.byteSize) else {
            throw otherwise
        }
        return .file(
            descriptor: descriptor, byteSize: photo.byteSize, contentType: PhotoKind.contentType(of: descriptor))
    }

    /// `GET /actions/{id}/photos/{local_id}` (contract 1.2): a photo of an
    /// action or of its update, to whoever may see the action; 404 otherwise.
    func downloadActionPhoto(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let actionID = try input.parameter("id")
        let text = try input.parameter("local_id")
        guard let localID = UUID(uuidString: text) else { throw ServerError.notFound("no photo '\(text)'") }
        let photo = try store.read { session -> StoredActionPhoto? in
            _ = try actionVisible(actionID, to: caller, in: session)
            return try session.actionPhoto(localID: localID)
        }
        return try served(
            photo?.actionID == actionID ? photo.map { ($0.sha256, $0.byteSize) } : nil,
            otherwise: ServerError.notFound("no photo '\(text)' on action '\(actionID.prefix(40))'"))
    }

    /// The report a photo goes to: it must exist and be the caller's own (supervisors: any).
    private func photoTarget(_ serverID: String, caller: Caller, in session: any StorageSession) throws(ServerError)
        -> StoredReport
    {
        try reportVisible(serverID, to: caller, in: session)
    }
}
