import Foundation

/// `POST /reports/{server_id}/uploads` request (contract 1.1): a resumable
/// upload of one photo, announced by its hash and size before its bytes.
public struct UploadRequest: Sendable, Hashable, Codable {
    public var localID: UUID
    public var fieldID: String?
    public var issueLocalID: UUID?
    /// An action's photo (contract 1.2): the update it belongs to; nil for the action's own.
    public var updateID: String?
    /// Lower-case hex SHA-256 of the whole file.
    public var sha256: String
    /// The whole file's size in bytes.
    public var byteSize: Int64

    public init(
        localID: UUID, fieldID: String? = nil, issueLocalID: UUID? = nil, updateID: String? = nil, sha256: String,
        byteSize: Int64
    ) {
        self.updateID = updateID
        self.localID = localID
        self.fieldID = fieldID
        self.issueLocalID = issueLocalID
        self.sha256 = sha256
        self.byteSize = byteSize
    }

    enum CodingKeys: String, CodingKey {
        case sha256
        case localID = "local_id"
        case fieldID = "field_id"
        case issueLocalID = "issue_local_id"
        case updateID = "update_id"
        case byteSize = "byte_size"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(localID, forKey: .localID)
        try c.encodeIfPresent(fieldID, forKey: .fieldID)
        if let issueLocalID { try c.encodeUUID(issueLocalID, forKey: .issueLocalID) }
        try c.encodeIfPresent(updateID, forKey: .updateID)
        try c.encode(sha256, forKey: .sha256)
        try c.encode(byteSize, forKey: .byteSize)
    }
}

/// An upload in progress: where its bytes go and how many the server holds.
public struct UploadSession: Sendable, Hashable, Codable {
    /// A path under `/api/v1/` on the same server, for `HEAD` and `PATCH`.
    public var url: String
    /// Bytes the server holds durably.
    public var offset: Int64
    /// RFC 3339: when the server drops it, unless more bytes come.
    public var expiresAt: String

    public init(url: String, offset: Int64, expiresAt: String) {
        self.url = url
        self.offset = offset
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case url, offset
        case expiresAt = "expires_at"
    }
}

/// The answer to `POST /reports/{server_id}/uploads`: the upload to continue,
/// or the photo when the server holds it whole already.
public struct UploadStartResponse: Sendable, Hashable, Codable {
    public var upload: UploadSession?
    public var photo: PhotoUploadResponse.UploadedPhoto?

    public init(upload: UploadSession? = nil, photo: PhotoUploadResponse.UploadedPhoto? = nil) {
        self.upload = upload
        self.photo = photo
    }
}
