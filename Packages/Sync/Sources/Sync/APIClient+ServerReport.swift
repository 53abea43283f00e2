import APIRoutes
import Foundation
import Models
import Networking

/// One photo of a report as `GET /reports/{server_id}` lists it.
public struct ServerPhoto: Sendable, Hashable, Decodable {
    /// The photo's id, made on the device that took it.
    public var localID: UUID
    /// Where its bytes are (`GET /reports/{server_id}/photos/{local_id}`).
    public var url: String
    /// Its size on the server.
    public var byteSize: Int64
    /// Lower-case hex SHA-256 of its bytes, when the server says.
    public var sha256: String?
    /// The field it answers, if any.
    public var fieldID: String?
    /// The issue it documents, if any.
    public var issueLocalID: UUID?

    /// A photo as listed.
    public init(
        localID: UUID, url: String, byteSize: Int64, sha256: String? = nil, fieldID: String? = nil,
        issueLocalID: UUID? = nil
    ) {
        self.localID = localID
        self.url = url
        self.byteSize = byteSize
        self.sha256 = sha256
        self.fieldID = fieldID
        self.issueLocalID = issueLocalID
    }

    private enum Keys: String, CodingKey {
        case url, sha256
        case localID = "local_id"
        case byteSize = "byte_size"
        case fieldID = "field_id"
        case issueLocalID = "issue_local_id"
    }

    /// Decodes one entry of `photos`; a numeric `field_id` is read as its digits.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        localID = try c.decode(UUID.self, forKey: .localID)
        url = try c.decode(String.self, forKey: .url)
        byteSize = try c.decode(Int64.self, forKey: .byteSize)
        sha256 = try c.decodeIfPresent(String.self, forKey: .sha256)
        if let number = try? c.decodeIfPresent(Int64.self, forKey: .fieldID) {
            fieldID = String(number)
        } else {
            fieldID = try c.decodeIfPresent(String.self, forKey: .fieldID)
        }
        issueLocalID = try c.decodeIfPresent(UUID.self, forKey: .issueLocalID)
    }
}

/// `GET /reports/{server_id}` read for a person to look at: the report as
/// the server holds it, with when the server accepted it and every photo.
public struct ServerReport: Sendable, Hashable, Decodable {
    /// The current revision, in the shape of the sync request.
    public var report: WireReport
    /// The server's current revision number.
    public var revision: Int
    /// When the server first accepted the report (RFC 3339), when it says.
    public var completedAt: String?
    /// Every photo uploaded for it.
    public var photos: [ServerPhoto]

    /// A report as the server holds it.
    public init(report: WireReport, revision: Int, completedAt: String?, photos: [ServerPhoto]) {
        self.report = report
        self.revision = revision
        self.completedAt = completedAt
        self.photos = photos
    }

    private enum Keys: String, CodingKey { case report }
    private enum ReportKeys: String, CodingKey {
        case revision, photos
        case completedAt = "completed_at"
    }

    /// Decodes the `data` object `{"report": {...}}`.
    public init(from decoder: any Decoder) throws {
        let outer = try decoder.container(keyedBy: Keys.self)
        report = try outer.decode(WireReport.self, forKey: .report)
        let inner = try outer.nestedContainer(keyedBy: ReportKeys.self, forKey: .report)
        revision = try inner.decode(Int.self, forKey: .revision)
        completedAt = try inner.decodeIfPresent(String.self, forKey: .completedAt)
        photos = try inner.decodeIfPresent([ServerPhoto].self, forKey: .photos) ?? []
    }
}

extension APIClient {
    /// The largest photo `downloadPhoto` keeps: past the reference server's 50 MiB limit, with room.
    public static let largestPhotoDownload: Int64 = 64 * 1024 * 1024

    /// `GET /reports/{server_id}`, with the photos' fields and issues: the owner
    /// and supervisors may read it (`forbidden` otherwise; `notFound` unknown).
    public func serverReport(serverID: String) async throws(APIError) -> ServerReport {
        try await perform(Call(.getReport, serverID), as: ServerReport.self).0
    }

    /// `GET /reports/{server_id}/photos/{local_id}`: the JPEG's bytes handed
    /// to `sink` as they arrive, never held whole; a 401 refreshes once and
    /// asks again (`sink` then sees only the second answer's bytes).
    public func downloadPhoto(serverID: String, localID: UUID, into sink: @escaping DownloadSink) async throws(APIError)
    {
        let url = self.url(APIRoute.downloadPhoto.path(serverID, localID.uuidString.lowercased()))
        _ = try await exchange(authenticated: true) { (token: String?) async throws(NetworkingError) -> HTTPResponse in
            try await self.transport.download(
                HTTPRequest(
                    method: HTTPMethod(APIRoute.downloadPhoto.method), url: url,
                    headers: self.headers(token: token, json: false)),
                maximumBytes: Self.largestPhotoDownload, into: sink)
        }
    }
}
