import Foundation

/// Where a photo is in its upload.
public enum PhotoUploadState: String, Sendable, Hashable, Codable, CaseIterable {
    case pending = "PENDING"
    case uploaded = "UPLOADED"
    case failed = "FAILED"
}

/// A photo attached to a report, to one of its fields, or to one of its issues.
public struct Photo: Sendable, Hashable {
    public let localID: UUID
    public var reportLocalID: UUID
    /// The image field it answers, if any.
    public var fieldID: FieldID?
    /// The issue it documents, if any.
    public var issueLocalID: UUID?
    /// File name inside the profile's photo directory; never an outside path.
    public var fileName: String
    public var uploadState: PhotoUploadState
    /// Size of the source file before compression.
    public var originalByteSize: Int64
    /// Size of the stored (compressed) file, the one uploaded.
    public var byteSize: Int64
    /// Lowercase hex SHA-256 of the stored file.
    public var sha256: String

    public init(
        localID: UUID = UUID(), reportLocalID: UUID, fieldID: FieldID? = nil, issueLocalID: UUID? = nil,
        fileName: String, uploadState: PhotoUploadState = .pending, originalByteSize: Int64,
        byteSize: Int64, sha256: String
    ) {
        self.localID = localID
        self.reportLocalID = reportLocalID
        self.fieldID = fieldID
        self.issueLocalID = issueLocalID
        self.fileName = fileName
        self.uploadState = uploadState
        self.originalByteSize = originalByteSize
        self.byteSize = byteSize
        self.sha256 = sha256
    }
}
