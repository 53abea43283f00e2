import Foundation
import ServerHTTP
import ServerStore

/// The photo a client may send with a request for service from the
/// console's form: checked before the request is recorded, then kept as the
/// photo of the action the request became, once however often the form is sent.
extension ConsoleRoutes {
    /// The photo chosen on the form, checked: nil when none was (a browser
    /// sends an empty file part then); 415 when it is not a JPEG or PNG; 429
    /// when the caller's bytes today would pass the quota.
    func requestPhoto(_ input: ConsoleInput, caller: Caller) throws(ServerError) -> UploadedFile? {
        guard case .multipart(let body) = input.request.body, let file = body.file, file.byteSize > 0 else {
            return nil
        }
        guard PhotoKind.of(descriptor: file.descriptor) != nil else { throw PhotoKind.refusal() }
        let used = try store.read { session in
            try session.usage(userID: caller.user.id, day: Quotas.day(Date())).bytes
        }
        try config.quotas.checkBytes(used, adding: file.byteSize)
        return file
    }

    /// Keeps `file` as the photo of the action `actionID` made from the
    /// request `requestID`. Its id is drawn from the request's, so the same
    /// form sent again (a reload, a double click) keeps one photo.
    func keepRequestPhoto(_ file: UploadedFile, actionID: String, requestID: String, caller: Caller)
        throws(ServerError)
    {
        let localID = Self.requestPhotoID(requestID)
        let held = try store.read { session in try session.actionPhoto(localID: localID) }
        guard held == nil else { return }
        try photos.keep(descriptor: file.descriptor, sha256: file.sha256, byteSize: file.byteSize)
        let photo = StoredActionPhoto(
            localID: localID, actionID: actionID, updateID: nil, sha256: file.sha256, byteSize: file.byteSize)
        let stored = try store.write { session -> Bool in
            // The same form sent twice at once: the second finds the first's photo.
            guard try session.actionPhoto(localID: localID) == nil,
                let action = try session.action(id: actionID)
            else { return false }
            let moved = try session.insertActionPhoto(photo, uploadedBy: caller.user.id, action: action)
            try session.addUsage(userID: caller.user.id, bytes: photo.byteSize, revisions: 0, day: Quotas.day(Date()))
            try ActionDocument.recordEvent(moved, .actionUpdated, in: session)
            return true
        }
        guard stored else { return }
        metrics.photoStored()
        outboxBells.ring()
    }

    /// The photo id of a request's photo: a UUID drawn from the request's id.
    static func requestPhotoID(_ requestID: String) -> UUID {
        var bytes = Array(
            Digest.hmacSHA256(key: Array("request-photo".utf8), message: Array(requestID.lowercased().utf8)).prefix(16))
        guard bytes.count == 16 else { return UUID() }
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
