import Foundation
import Models

/// The answers of a photo's resumable upload (contract 1.1), two for every
/// photo, read from their bytes as the sync answer is: what the reader is not
/// sure of goes to `JSONDecoder`, which accepts and refuses exactly as before.
extension SyncResponseReader {
    /// The answer to `POST /reports/{server_id}/uploads`.
    static func readUploadStart(_ body: Data) -> UploadStartResponse? {
        read(body) { $0.uploadStart() }
    }

    /// The answer to the `PATCH` that brought an upload's last byte.
    static func readPhotoUpload(_ body: Data) -> PhotoUploadResponse? {
        read(body) { reader in
            var photo: PhotoUploadResponse.UploadedPhoto?
            let read = reader.object { reader, key in
                guard key == "photo", photo == nil, let value = reader.uploadedPhoto() else { return false }
                photo = value
                return true
            }
            guard read, let photo else { return nil }
            return PhotoUploadResponse(photo: photo)
        }
    }

    private mutating func uploadStart() -> UploadStartResponse? {
        var upload: UploadSession??
        var photo: PhotoUploadResponse.UploadedPhoto??
        let read = object { reader, key in
            switch key {
            case "upload":
                guard upload == nil, let value = reader.optional({ $0.uploadSession() }) else { return false }
                upload = value
            case "photo":
                guard photo == nil, let value = reader.optional({ $0.uploadedPhoto() }) else { return false }
                photo = value
            default:
                return false
            }
            return true
        }
        guard read else { return nil }
        return UploadStartResponse(upload: upload ?? nil, photo: photo ?? nil)
    }

    private mutating func uploadSession() -> UploadSession? {
        var url: String?
        var offset: Int?
        var expiresAt: String?
        let read = object { reader, key in
            switch key {
            case "url":
                guard url == nil, let value = reader.string() else { return false }
                url = value
            case "offset":
                guard offset == nil, let value = reader.integer() else { return false }
                offset = value
            case "expires_at":
                guard expiresAt == nil, let value = reader.string() else { return false }
                expiresAt = value
            default:
                return false
            }
            return true
        }
        guard read, let url, let offset, let expiresAt else { return nil }
        return UploadSession(url: url, offset: Int64(offset), expiresAt: expiresAt)
    }

    private mutating func uploadedPhoto() -> PhotoUploadResponse.UploadedPhoto? {
        var localID: UUID?
        var url: String?
        var byteSize: Int?
        let read = object { reader, key in
            switch key {
            case "local_id":
                guard localID == nil, let value = reader.uuid() else { return false }
                localID = value
            case "url":
                guard url == nil, let value = reader.string() else { return false }
                url = value
            case "byte_size":
                guard byteSize == nil, let value = reader.integer() else { return false }
                byteSize = value
            default:
                return false
            }
            return true
        }
        guard read, let localID, let url, let byteSize else { return nil }
        return PhotoUploadResponse.UploadedPhoto(localID: localID, url: url, byteSize: Int64(byteSize))
    }
}
