import APIRoutes
import Foundation
import Models
import ServerHTTP
import ServerStore

struct UploadRoutes: RouteCapability {
    let context: ServerContext

    /// `POST /reports/{server_id}/uploads` (contract 1.1): 201 a new upload;
    /// 200 the same upload and its offset while it is unfinished; 200 the
    /// photo when the server holds it whole.
    func createUpload(_ input: RouteInput) throws(ServerError) -> Reply {
        try beginUpload(input, goal: .report(serverID: try input.parameter("server_id")))
    }

    /// `POST /actions/{id}/uploads` (contract 1.2): the same for a photo of
    /// an action (its creator's) or, with `update_id`, of a recorded update
    /// (its author's); then the same `HEAD` and `PATCH`.
    func createActionUpload(_ input: RouteInput) throws(ServerError) -> Reply {
        let request = try uploadRequest(input)
        let update = request.updateID.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        return try beginUpload(input, goal: .action(id: try input.parameter("id"), updateID: update), request: request)
    }

    /// The upload request in the body, its hash and size checked.
    private func uploadRequest(_ input: RouteInput) throws(ServerError) -> UploadRequest {
        let request: UploadRequest
        if case .data(let body) = input.request.body, let plain = UploadRequestReader.read(body) {
            request = plain
        } else {
            request = try input.decode(UploadRequest.self)
        }
        guard Hex.isSHA256(request.sha256) else {
            throw ServerError.badRequest("'sha256' must be the 64 hex digits of the file's SHA-256")
        }
        guard request.byteSize > 0 else {
            throw ServerError.badRequest("'byte_size' must be a positive number of bytes")
        }
        guard request.byteSize <= config.maxPhotoBytes else {
            throw ServerError.tooLarge(
                "a photo of \(request.byteSize) bytes is over the photo limit of \(config.maxPhotoBytes) bytes")
        }
        return request
    }

    /// Begins (or finds again) the upload of a photo for `goal`.
    private func beginUpload(_ input: RouteInput, goal: UploadGoal, request given: UploadRequest? = nil)
        throws(ServerError) -> Reply
    {
        let request: UploadRequest
        if let given { request = given } else { request = try uploadRequest(input) }
        let now = Date()
        // The caller and their right to the goal first: nothing about someone else's report or action is revealed
        // or stored. One read finds them, the photo, what the quotas count and the photo's unfinished upload.
        let (caller, held, used, found) = try store.read {
            session -> (Caller, GoalPhotos, Int64, StoredUpload?) in
            let caller = try self.caller(of: input, in: session)
            if case .report = goal, caller.user.role == .client { throw ClientScope.refusal() }
            return (
                caller, try goalPhotos(goal, localID: request.localID, caller: caller, in: session),
                try session.usage(userID: caller.user.id, day: Quotas.day(now)).bytes,
                try session.unexpiredUpload(localID: request.localID, userID: caller.user.id, now: now)
            )
        }
        if let existing = held.existing { return .answer(UploadStartResponse(photo: existing)) }
        if context.uploadSweeps.withLock({ $0.isDue() }) { _ = try uploads.sweep(now: now, limit: 20) }
        if let found, var upload = try uploads.checked(found) {
            if !upload.finished, upload.offset < upload.byteSize {
                // A PATCH of it cut short may still be being kept: its offset is told once that is done, as HEAD tells it.
                arrivals.awaitEarlier(upload.id)
                upload = try uploads.upload(id: upload.id, userID: caller.user.id, now: now) ?? upload
            }
            if UploadGoal(upload) == goal && upload.sha256 == request.sha256.lowercased()
                && upload.byteSize == request.byteSize
                && !upload.finished
            {
                // Every byte arrived but the photo could not be stored then (a full disk, the database
                // away): it is stored now, so the client is answered the photo, not an upload at its end.
                if upload.offset == upload.byteSize { return try complete(upload, caller: caller, status: 200) }
                return .answer(UploadStartResponse(upload: session(upload)))
            }
            // Other bytes announced for the same photo: the old upload goes, the new one begins.
            try uploads.drop(upload)
        }
        try config.quotas.checkPhoto(goal.serverID, held: held.held, used: used, adding: request.byteSize)
        let isReport = goal == .report(serverID: goal.serverID)
        let upload = StoredUpload(
            id: StoredUpload.makeID(), userID: caller.user.id, serverID: goal.serverID, localID: request.localID,
            fieldID: isReport ? request.fieldID.flatMap { $0.isEmpty ? nil : $0 } : nil,
            issueLocalID: isReport ? request.issueLocalID : nil, sha256: request.sha256.lowercased(),
            byteSize: request.byteSize, offset: 0,
            expiresAt: now.addingTimeInterval(TimeInterval(config.uploadLifetime)), finished: false,
            target: goal.target)
        let quotas = config.quotas
        try uploads.create(upload, now: now) { held in
            do throws(ServerError) {
                try quotas.checkUploads(held: held, adding: upload.byteSize)
                return nil
            } catch {
                return error
            }
        }
        return .answer(UploadStartResponse(upload: session(upload)), status: 201)
    }

    /// `HEAD /uploads/{upload_id}`: 200 with `Upload-Offset`, the bytes held
    /// durably (a finished upload: its size); 404 `UPLOAD_GONE` otherwise.
    func uploadStatus(_ input: RouteInput) throws(ServerError) -> Reply {
        let caller = try input.requireCaller()
        let id = try input.parameter("upload_id")
        guard StoredUpload.isID(id) else { throw Self.uploadGone(id) }
        arrivals.awaitEarlier(id)
        guard let upload = try uploads.upload(id: id, userID: caller.user.id, now: Date()) else {
            throw Self.uploadGone(id)
        }
        return .status(
            200, headers: Self.offsetHeaders(upload.finished ? upload.byteSize : upload.offset), body: Data())
    }

    /// `PATCH /uploads/{upload_id}` with `Upload-Offset: N` and the bytes
    /// from N on: 204 with the new `Upload-Offset`; at the last byte 201 the
    /// photo, or 422 `PHOTO_HASH_MISMATCH` or 415 `UNSUPPORTED_MEDIA_TYPE` for
    /// bytes that are not a JPEG or PNG (the upload dropped); 409 with the
    /// right `Upload-Offset` for a wrong one; 413 past the announced size.
    func appendUpload(_ input: RouteInput) throws(ServerError) -> Reply {
        let id = try input.parameter("upload_id")
        guard StoredUpload.isID(id) else { throw Self.uploadGone(id) }
        guard let text = input.request.headers["upload-offset"]?.trimmingHTTPSpace(),
            let claimed = Int64(text), claimed >= 0
        else {
            throw ServerError.badRequest(
                "the request needs 'Upload-Offset: N', the bytes the server holds (ask with HEAD)")
        }
        guard case .octets(let body) = input.request.body else {
            throw ServerError.badRequest("the bytes must be sent as Content-Type: application/offset+octet-stream")
        }
        arrivals.awaitEarlier(id, than: input.request.tag)
        let now = Date()
        // One read finds the caller, the upload and, when this request brings its every byte, what storing the
        // photo checks.
        let (caller, found, admission) = try store.read {
            session -> (Caller, StoredUpload?, Result<PhotoAdmission, ServerError>?) in
            let caller = try self.caller(of: input, in: session)
            guard let upload = try session.unexpiredUpload(id: id, userID: caller.user.id, now: now) else {
                return (caller, nil, nil)
            }
            guard !upload.finished, upload.offset == 0, claimed == 0, body.complete,
                body.file.byteSize == upload.byteSize
            else { return (caller, upload, nil) }
            do throws(ServerError) {
                return (caller, upload, .success(try self.admission(of: upload, caller: caller, in: session)))
            } catch {
                return (caller, upload, .failure(error))
            }
        }
        guard let found, var upload = try uploads.checked(found) else { throw Self.uploadGone(id) }
        if upload.finished {
            guard claimed == upload.byteSize, body.file.byteSize == 0 else {
                throw Self.wrongOffset(upload.byteSize, claimed)
            }
            return try storedPhoto(of: upload, created: false)
        }
        guard claimed == upload.offset else { throw Self.wrongOffset(upload.offset, claimed) }
        guard claimed + body.file.byteSize <= upload.byteSize else {
            throw ServerError.tooLarge(
                "the upload is \(upload.byteSize) bytes; \(body.file.byteSize) bytes from \(claimed) go past its end")
        }
        let expiry = now.addingTimeInterval(TimeInterval(config.uploadLifetime))
        if claimed == 0, body.complete, body.file.byteSize == upload.byteSize {
            // The whole photo in one request, the way a client sends one when nothing was cut short: it is
            // stored from the bytes as they arrived, hashed on the way in, as the multipart route stores one,
            // without a copy in the upload's own file first.
            do {
                return try complete(upload, caller: caller, arrived: body.file, admission: admission)
            } catch  where error.status >= 500 {
                // The photo could not be stored now (a full disk, the database away): its bytes are kept in the
                // upload as any PATCH's are, so that once there is room the client need not send them again.
                _ = try? uploads.append(
                    upload, from: body.file.descriptor, count: body.file.byteSize, expiresAt: expiry, durably: true)
                throw error
            }
        }
        if body.file.byteSize > 0 {
            let completes = claimed + body.file.byteSize == upload.byteSize
            switch try uploads.append(
                upload, from: body.file.descriptor, count: body.file.byteSize, expiresAt: expiry,
                durably: !completes)
            {
            case .appended(let offset):
                upload.offset = offset
                upload.expiresAt = expiry
            case .moved(let offset):
                throw Self.wrongOffset(offset, claimed)
            case .gone:
                throw Self.uploadGone(id)
            }
        }
        guard upload.offset == upload.byteSize else {
            return .status(204, headers: Self.offsetHeaders(upload.offset), body: Data())
        }
        return try complete(upload, caller: caller)
    }

    /// What a `PATCH` cut short left: its bytes are kept as a whole one's would be; nobody hears the answer.
    func abandonedUpload(_ request: ServerRequest) {
        defer { arrivals.end(request.tag) }
        guard case .octets(let body) = request.body, body.file.byteSize > 0,
            case .route(let route, let parameters) = Router.match(method: request.method, path: request.path),
            route.endpoint == .contract(.appendUpload)
        else { return }
        do throws(ServerError) {
            let caller = try authenticate(request, allowRevoked: false)
            _ = try appendUpload(RouteInput(request: request, parameters: parameters, caller: caller))
            log.note(
                "kept \(body.file.byteSize) bytes of an upload cut short", address: request.clientAddress, level: .debug
            )
        } catch {
            log.note(
                "bytes of an upload cut short were not kept: \(error.status) \(error.message)",
                address: request.clientAddress,
                level: .debug)
        }
    }

    /// The last byte arrived: the hash is checked, and the photo stored
    /// exactly as the multipart route stores one (same store, quotas, rules),
    /// from the upload's own file or, when one request brought every byte,
    /// from `arrived`, the request's body. Answered 201 when stored now and
    /// 200 when it was already, or `status`.
    private func complete(
        _ upload: StoredUpload, caller: Caller, status: Int? = nil,
        arrived: UploadedFile? = nil, admission: Result<PhotoAdmission, ServerError>? = nil
    ) throws(ServerError) -> Reply {
        let (descriptor, sha256): (Int32, String)
        if let arrived {
            (descriptor, sha256) = (arrived.descriptor, arrived.sha256)
        } else {
            (descriptor, sha256) = try uploads.assemble(upload)
        }
        // The body's descriptor belongs to the request, which closes it.
        defer { if arrived == nil { close(descriptor) } }
        guard sha256 == upload.sha256 else {
            try uploads.drop(upload)
            throw ServerError.unprocessable(
                code: .photoHashMismatch,
                "the file's SHA-256 is \(sha256), not the \(upload.sha256) announced; upload it again")
        }
        guard PhotoKind.of(descriptor: descriptor) != nil else {
            try uploads.drop(upload)
            throw PhotoKind.refusal()
        }
        // One read (or the one that found the upload): the report still the caller's, the photo not yet held,
        // and what the quotas count.
        let checks: PhotoAdmission
        if let admission {
            checks = try admission.get()
        } else {
            checks = try store.read { session throws(ServerError) in
                try self.admission(of: upload, caller: caller, in: session)
            }
        }
        if checks.existing == nil {
            try config.quotas.checkPhoto(upload.serverID, held: checks.held, used: checks.used, adding: upload.byteSize)
            // The request's own body may be linked into place; the upload's file, which a failure
            // below leaves to be written to again, is copied.
            if arrived == nil {
                try photos.keep(copying: descriptor, sha256: sha256, byteSize: upload.byteSize)
            } else {
                try photos.keep(descriptor: descriptor, sha256: sha256, byteSize: upload.byteSize)
            }
        }
        // The photo recorded and its upload marked finished in one transaction: never one without the other.
        let stored = try store.write { session -> (PhotoUploadResponse.UploadedPhoto, Bool) in
            try session.finishUpload(upload.id, at: Date())
            let stored = try record(upload, sha256: sha256, caller: caller, in: session)
            if stored.1 {
                try session.addUsage(
                    userID: caller.user.id, bytes: upload.byteSize, revisions: 0, day: Quotas.day(Date()))
            }
            return stored
        }
        uploads.release(upload)
        if stored.1 { metrics.photoStored() }
        return .answer(PhotoUploadResponse(photo: stored.0), status: status ?? (stored.1 ? 201 : 200))
    }

    /// Records the photo of a whole upload where it goes, unless it is held
    /// already (a race): the photo as answered, and whether it was recorded
    /// now. A photo of an action moves the action's change and tells its webhooks.
    private func record(_ upload: StoredUpload, sha256: String, caller: Caller, in session: any StorageSession)
        throws(ServerError) -> (PhotoUploadResponse.UploadedPhoto, Bool)
    {
        switch UploadGoal(upload) {
        case .report(let serverID):
            if let raced = try session.photo(localID: upload.localID) {
                guard raced.serverID == serverID else {
                    throw ServerError.badRequest("photo \(upload.localID) already belongs to another report")
                }
                return (uploaded(raced), false)
            }
            let photo = StoredPhoto(
                localID: upload.localID, serverID: serverID, fieldID: upload.fieldID,
                issueLocalID: upload.issueLocalID, sha256: sha256, byteSize: upload.byteSize)
            try session.insertPhoto(photo, uploadedBy: caller.user.id)
            return (uploaded(photo), true)
        case .action(let id, let updateID):
            if let raced = try session.actionPhoto(localID: upload.localID) {
                guard raced.actionID == id, raced.updateID == updateID else {
                    throw ServerError.badRequest("photo \(upload.localID) already belongs to another action or update")
                }
                return (uploaded(raced), false)
            }
            guard let action = try session.action(id: id) else { throw ServerError.notFound("no action '\(id)'") }
            let photo = StoredActionPhoto(
                localID: upload.localID, actionID: id, updateID: updateID, sha256: sha256, byteSize: upload.byteSize)
            let moved = try session.insertActionPhoto(photo, uploadedBy: caller.user.id, action: action)
            try ActionDocument.recordEvent(moved, .actionUpdated, in: session)
            return (uploaded(photo), true)
        }
    }

    /// What storing an upload's photo checks, read in one transaction: the
    /// caller's right to the goal still (thrown otherwise), the photo held
    /// already, and, when it is not, the goal's photos and the caller's bytes today.
    private func admission(of upload: StoredUpload, caller: Caller, in session: any StorageSession) throws(ServerError)
        -> PhotoAdmission
    {
        let goal = try goalPhotos(UploadGoal(upload), localID: upload.localID, caller: caller, in: session)
        if goal.existing != nil { return PhotoAdmission(existing: goal.existing, held: 0, used: 0) }
        return PhotoAdmission(
            existing: nil, held: goal.held,
            used: try session.usage(userID: caller.user.id, day: Quotas.day(Date())).bytes)
    }

    /// The photo a finished upload stored, answered again.
    private func storedPhoto(of upload: StoredUpload, created: Bool) throws(ServerError) -> Reply {
        let photo = try store.read { session -> PhotoUploadResponse.UploadedPhoto? in
            switch upload.target {
            case .report: try session.photo(localID: upload.localID).map { uploaded($0) }
            case .action: try session.actionPhoto(localID: upload.localID).map { uploaded($0) }
            }
        }
        guard let photo else { throw Self.uploadGone(upload.id) }
        return .answer(PhotoUploadResponse(photo: photo), status: created ? 201 : 200)
    }

    private func session(_ upload: StoredUpload) -> UploadSession {
        UploadSession(
            url: APIRoute.uploadStatus.fullPath(upload.id), offset: upload.offset,
            expiresAt: RFC3339.string(upload.expiresAt))
    }

    private static func offsetHeaders(_ offset: Int64) -> [(name: String, value: String)] {
        [(name: "Upload-Offset", value: String(offset)), (name: "Cache-Control", value: "no-store")]
    }

    /// 404 `UPLOAD_GONE`: expired, dropped, finished long ago, someone else's or never made; all look alike.
    static func uploadGone(_ id: String) -> ServerError {
        ServerError(
            status: 404, code: .uploadGone,
            "no upload '\(id.prefix(40))' here; it expired or was dropped: begin a new one")
    }

    /// 409 `UPLOAD_OFFSET_MISMATCH` with the offset the server holds in `Upload-Offset`.
    static func wrongOffset(_ held: Int64, _ claimed: Int64) -> ServerError {
        ServerError(
            status: 409, code: .uploadOffsetMismatch,
            "the server holds \(held) bytes of this upload, not \(claimed); send from \(held)",
            headers: offsetHeaders(held))
    }
}

/// What storing an upload's photo checks (`ServerApp.admission(of:caller:in:)`).
struct PhotoAdmission: Sendable {
    /// The photo, when the server holds it already.
    let existing: PhotoUploadResponse.UploadedPhoto?
    /// The goal's photos.
    let held: Int
    /// The caller's bytes today.
    let used: Int64
}
