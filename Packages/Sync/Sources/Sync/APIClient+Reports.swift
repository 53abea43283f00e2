import APIRoutes
import Foundation
import Models
import Networking

/// One photo to upload to a report already on the server.
public struct PhotoUpload: Sendable, Hashable {
    /// The report's server id.
    public var serverID: String
    /// The photo's `local_id`; the server is idempotent on it.
    public var localID: UUID
    /// The field the photo answers, if any.
    public var fieldID: String?
    /// The issue the photo belongs to, if any.
    public var issueLocalID: UUID?
    /// Lower-case hex SHA-256 of the file's bytes.
    public var sha256: String
    /// The JPEG on disk; streamed, never read whole into memory.
    public var filePath: String

    /// A photo upload.
    public init(
        serverID: String, localID: UUID, fieldID: String? = nil, issueLocalID: UUID? = nil,
        sha256: String, filePath: String
    ) {
        self.serverID = serverID
        self.localID = localID
        self.fieldID = fieldID
        self.issueLocalID = issueLocalID
        self.sha256 = sha256
        self.filePath = filePath
    }
}

/// The server's receipt for one photo.
public struct PhotoReceipt: Sendable, Hashable {
    /// The stored photo as the server describes it.
    public var photo: PhotoUploadResponse.UploadedPhoto
    /// True on 201 (stored now), false on 200 (the server already had it).
    public var created: Bool

    /// A receipt.
    public init(photo: PhotoUploadResponse.UploadedPhoto, created: Bool) {
        self.photo = photo
        self.created = created
    }
}

/// `GET /reports/{server_id}`: a report as the server holds it.
public struct RemoteReport: Sendable, Hashable, Decodable {
    /// The report, in the shape of the sync request.
    public var report: WireReport
    /// The server's current revision.
    public var revision: Int
    /// The photos the server has for it.
    public var photos: [PhotoUploadResponse.UploadedPhoto]

    /// A report as the server holds it.
    public init(report: WireReport, revision: Int, photos: [PhotoUploadResponse.UploadedPhoto]) {
        self.report = report
        self.revision = revision
        self.photos = photos
    }

    private enum Keys: String, CodingKey { case report }
    private enum ReportKeys: String, CodingKey { case revision, photos }

    /// Decodes the `data` object `{"report": {...}}`.
    public init(from decoder: any Decoder) throws {
        let outer = try decoder.container(keyedBy: Keys.self)
        report = try outer.decode(WireReport.self, forKey: .report)
        let inner = try outer.nestedContainer(keyedBy: ReportKeys.self, forKey: .report)
        revision = try inner.decode(Int.self, forKey: .revision)
        photos = try inner.decodeIfPresent([PhotoUploadResponse.UploadedPhoto].self, forKey: .photos) ?? []
    }
}

extension APIClient {
    /// `POST /reports/sync`: one result per report, in request order. At most
    /// `SyncRequest.maximumBatch` reports (`tooLarge` beyond).
    public func syncReports(_ request: SyncRequest) async throws(APIError) -> SyncResponse {
        let body = try encode(request)
        return try await perform(
            Call(.syncReports, body: body), as: SyncResponse.self, reading: SyncResponseReader.read
        ).0
    }

    /// `POST /reports/sync` with a body already written (`SyncRequestBody`):
    /// the sync engine writes the next batch while the one before is in flight.
    func syncReports(_ body: SyncRequestBody) async throws(APIError) -> SyncResponse {
        try await perform(Call(.syncReports, body: body.data), as: SyncResponse.self, reading: SyncResponseReader.read)
            .0
    }

    /// `POST /reports/{server_id}/photos`: streams the file from disk as multipart.
    /// Idempotent on the photo's `local_id` (`created` false the second time).
    public func uploadPhoto(_ photo: PhotoUpload) async throws(APIError) -> PhotoReceipt {
        let response = try await exchange(authenticated: true) {
            (token: String?) async throws(NetworkingError) -> HTTPResponse in
            try await self.transport.upload(self.multipart(photo, token: token))
        }
        return try receipt(response)
    }

    /// Uploads several photos concurrently, at most `maxConcurrent` at a time;
    /// one result per photo, in input order. Photos refused with 401 are sent
    /// once more after one shared refresh; one failing never stops the others.
    /// `finished` is called once per photo as its upload ends (after its
    /// second try, for one refused with 401), with its index and whether it
    /// was stored, on any thread, one call at a time.
    public func uploadPhotos(
        _ photos: [PhotoUpload], maxConcurrent: Int,
        finished: @escaping @Sendable (_ index: Int, _ uploaded: Bool) -> Void = { _, _ in }
    )
        async -> [Result<PhotoReceipt, APIError>]
    {
        guard let token = credentials?.accessToken else {
            return photos.map { _ in .failure(APIError(.authRequired, APIError.signInAgain)) }
        }
        var responses = await transport.uploadAll(
            photos.map { multipart($0, token: token) }, maxConcurrent: maxConcurrent
        ) { index, result in
            let status = (try? result.get())?.status
            if status != 401 { finished(index, status.map { (200...299).contains($0) } ?? false) }
        }
        let rejected = responses.indices.filter { (try? responses[$0].get())?.status == 401 }
        if !rejected.isEmpty {
            do throws(APIError) {
                if credentials?.accessToken == token { _ = try await sharedRefresh() }
                guard let renewed = credentials?.accessToken else {
                    throw APIError(.authRequired, APIError.signInAgain)
                }
                let again = await transport.uploadAll(
                    rejected.map { multipart(photos[$0], token: renewed) },
                    maxConcurrent: maxConcurrent
                ) { index, result in
                    let status = (try? result.get())?.status
                    finished(rejected[index], status.map { (200...299).contains($0) } ?? false)
                }
                for (index, result) in zip(rejected, again) { responses[index] = result }
            } catch {
                for index in rejected { finished(index, false) }
                return responses.enumerated().map { index, result in
                    rejected.contains(index) ? .failure(error) : outcome(result)
                }
            }
        }
        return responses.map { outcome($0) }
    }

    /// `GET /reports/{server_id}`.
    public func report(serverID: String) async throws(APIError) -> RemoteReport {
        try await perform(Call(.getReport, serverID), as: RemoteReport.self).0
    }

    /// `PATCH /reports/{server_id}` (supervisors): a new server revision on top of
    /// `baseRevision`; `conflict` when that is no longer the current one.
    public func amendReport(serverID: String, payload: WirePayload, baseRevision: Int) async throws(APIError)
        -> RemoteReport
    {
        struct Amendment: Encodable {
            let payload: WirePayload
            let baseRevision: Int
            enum CodingKeys: String, CodingKey {
                case payload
                case baseRevision = "base_revision"
            }
        }
        let body = try encode(Amendment(payload: payload, baseRevision: baseRevision))
        return try await perform(Call(.patchReport, serverID, body: body), as: RemoteReport.self).0
    }

    /// `GET /inspections?status=completed`: inspectors see their own, supervisors everyone's;
    /// `filter` narrows it (contract 1.1 parameters).
    public func history(limit: Int = 30, offset: Int = 0, filter: HistoryFilter = HistoryFilter())
        async throws(APIError) -> HistoryPage
    {
        let query = [("status", "completed"), ("limit", String(limit)), ("offset", String(offset))] + filter.queryItems
        return try await perform(Call(.inspections, query: query), as: HistoryPage.self).0
    }

    /// `GET /rollup` (supervisors; `forbidden` for inspectors).
    public func rollup() async throws(APIError) -> Rollup {
        try await perform(Call(.rollup), as: Rollup.self).0
    }

    // MARK: - Photos

    private nonisolated func multipart(_ photo: PhotoUpload, token: String?) -> MultipartUpload {
        let localID = photo.localID.uuidString.lowercased()
        var fields: [(name: String, value: String)] = [("local_id", localID)]
        if let fieldID = photo.fieldID { fields.append(("field_id", fieldID)) }
        if let issue = photo.issueLocalID { fields.append(("issue_local_id", issue.uuidString.lowercased())) }
        fields.append(("sha256", photo.sha256.lowercased()))
        return MultipartUpload(
            url: url(APIRoute.uploadPhoto.path(photo.serverID)),
            headers: headers(token: token, json: false), fields: fields,
            file: .init(name: "file", path: photo.filePath, contentType: "image/jpeg", filename: "\(localID).jpg"))
    }

    private func receipt(_ response: HTTPResponse) throws(APIError) -> PhotoReceipt {
        PhotoReceipt(photo: try decode(response, as: PhotoUploadResponse.self).photo, created: response.status == 201)
    }

    private func outcome(_ result: Result<HTTPResponse, NetworkingError>) -> Result<PhotoReceipt, APIError> {
        switch result {
        case .failure(let error):
            return .failure(APIError(error))
        case .success(let response) where (200...299).contains(response.status):
            do throws(APIError) { return .success(try receipt(response)) } catch { return .failure(error) }
        case .success(let response):
            return .failure(APIError.from(response, host: host, authenticated: true))
        }
    }
}
