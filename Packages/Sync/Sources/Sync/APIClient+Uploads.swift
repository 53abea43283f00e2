import APIRoutes
import Foundation
import Models
import Networking

/// How `POST /reports/{server_id}/uploads` answered.
public enum UploadStart: Sendable, Hashable {
    /// The upload to continue, and how many bytes the server holds.
    case upload(UploadSession)
    /// The server holds the photo whole already.
    case photo(PhotoReceipt)
}

/// How a `PATCH` of an upload answered.
public enum UploadStep: Sendable, Hashable {
    /// The server holds this many bytes (after a 204, or the right offset of a 409).
    case held(Int64)
    /// The last byte arrived and the photo is stored.
    case stored(PhotoReceipt)
}

extension APIClient {
    /// `POST /reports/{server_id}/uploads` (contract 1.1): begins, or finds,
    /// the resumable upload of `photo`, `byteSize` bytes long.
    public func beginUpload(_ photo: PhotoUpload, byteSize: Int64) async throws(APIError) -> UploadStart {
        let body = UploadRequestBody.data(
            UploadRequest(
                localID: photo.localID, fieldID: photo.fieldID, issueLocalID: photo.issueLocalID,
                sha256: photo.sha256.lowercased(), byteSize: byteSize))
        return try await beginUpload(Call(.createUpload, photo.serverID, body: body), localID: photo.localID)
    }

    /// `POST /actions/{id}/uploads` (contract 1.2): begins, or finds, the
    /// resumable upload of photo `localID` of the recorded update `updateID`.
    public func beginActionUpload(
        actionID: String, updateID: UUID, localID: UUID, sha256: String, byteSize: Int64
    ) async throws(APIError) -> UploadStart {
        let body = UploadRequestBody.data(
            UploadRequest(
                localID: localID, updateID: updateID.uuidString.lowercased(), sha256: sha256.lowercased(),
                byteSize: byteSize))
        return try await beginUpload(Call(.createActionUpload, actionID, body: body), localID: localID)
    }

    /// The answer to a call that begins an upload: the upload, or the photo held whole already.
    private func beginUpload(_ call: Call, localID: UUID) async throws(APIError) -> UploadStart {
        let (answer, status) = try await perform(
            call, as: UploadStartResponse.self, reading: SyncResponseReader.readUploadStart)
        if let uploaded = answer.photo { return .photo(PhotoReceipt(photo: uploaded, created: false)) }
        guard let upload = answer.upload, Self.isUploadPath(upload.url) else {
            throw APIError(
                .invalidResponse,
                "The server at \(host) answered the upload of photo \(localID.wireString) with no upload url of its own.",
                status: status)
        }
        return .upload(upload)
    }

    /// `HEAD {url}`: the bytes the server holds of an upload. A gone upload is `notFound`.
    public func uploadOffset(_ path: String) async throws(APIError) -> Int64 {
        let url = try uploadURL(path)
        let response: HTTPResponse
        do throws(APIError) {
            response = try await exchange(authenticated: true) {
                (token: String?) async throws(NetworkingError) -> HTTPResponse in
                try await self.transport.send(
                    HTTPRequest(
                        method: HTTPMethod(APIRoute.uploadStatus.method), url: url,
                        headers: self.headers(token: token, json: false)))
            }
        } catch  where error.status == 404 {
            // A HEAD answer has no body to carry the code: every 404 of an upload means it is gone.
            throw APIError(
                .notFound, "The server at \(host) no longer holds this upload; it begins again.", status: 404,
                serverCode: APIError.ServerCode.uploadGone.rawValue)
        }
        guard response.status == 200 else { throw APIError.from(response, host: host, authenticated: true) }
        return try offset(response)
    }

    /// `PATCH {url}` with `Upload-Offset: offset` and the bytes of `file`
    /// from `offset` to its end, read from disk while they are sent.
    public func appendUpload(_ path: String, offset: Int64, file: String, byteSize: Int64) async throws(APIError)
        -> UploadStep
    {
        let url = try uploadURL(path)
        let range = FileRange(path: file, offset: offset, length: byteSize - offset)
        let response = try await exchange(authenticated: true) {
            (token: String?) async throws(NetworkingError) -> HTTPResponse in
            var headers = self.headers(token: token, json: false)
            headers.append((name: "Content-Type", value: "application/offset+octet-stream"))
            headers.append((name: "Upload-Offset", value: String(offset)))
            return try await self.transport.send(
                HTTPRequest(method: HTTPMethod(APIRoute.appendUpload.method), url: url, headers: headers), body: range)
        }
        switch response.status {
        case 204,
            409 where response.headers["upload-offset"] != nil:
            return .held(try self.offset(response))
        case 200, 201:
            var answer = SyncResponseReader.readPhotoUpload(response.body)
            if answer == nil { answer = try decode(response, as: PhotoUploadResponse.self) }
            guard let photo = answer?.photo else { throw APIError.notTheAPI(response, host: host) }
            return .stored(PhotoReceipt(photo: photo, created: response.status == 201))
        default:
            throw APIError.from(response, host: host, authenticated: true)
        }
    }

    /// Where every upload url of this server begins.
    private static let uploadPathPrefix = APIRoute.basePath + "/"

    /// An upload's url is a path under the API on this same server; anything else is refused.
    /// Read byte by byte: every photo's url passes here twice.
    static func isUploadPath(_ path: String) -> Bool {
        guard path.utf8.starts(with: uploadPathPrefix.utf8) else { return false }
        var previous: UInt8 = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { return false }
            // ".." and "//"
            if byte == previous && (byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/")) { return false }
            previous = byte
        }
        return true
    }

    private nonisolated func uploadURL(_ path: String) throws(APIError) -> String {
        guard Self.isUploadPath(path) else {
            throw APIError(
                .invalidResponse,
                "The server's upload url '\(path.prefix(80))' is not a path under /api/v1/ of the same server.")
        }
        return String(apiBase.dropLast(APIRoute.basePath.count)) + path
    }

    private func offset(_ response: HTTPResponse) throws(APIError) -> Int64 {
        guard let text = response.headers["upload-offset"],
            let value = Int64(text.trimmingCharacters(in: .whitespaces)), value >= 0
        else {
            throw APIError(
                .invalidResponse, "The server at \(host) answered an upload without a readable Upload-Offset.",
                status: response.status)
        }
        return value
    }
}
