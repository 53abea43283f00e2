import APIRoutes
import Foundation
import Models
import Networking
import ServerCore
import Sync
import Synchronization
import Testing

/// The contract's one route table (`APIRoute`): the server serves every
/// route of it, and every request the device's client makes, its path built
/// from the table, is matched by the server's router to the route it meant.
@Suite("One route table for the client and the server")
struct SharedRouteTableTests {
    @Test("every route of the table is served by the server's router, its parameters read back")
    func everyRouteServed() {
        for api in APIRoute.allCases {
            let values = api.parameters.map { "\($0)-1" }
            let path = Router.basePath + api.path(filling: values)
            guard case .route(let route, let parameters) = Router.match(method: api.method.rawValue, path: path) else {
                Issue.record("\(api.method.rawValue) \(path) is not served")
                continue
            }
            #expect(route.apiRoute == api, "\(api)")
            #expect(route.method == api.method.rawValue && route.pattern == api.template, "\(api)")
            #expect(parameters == Dictionary(uniqueKeysWithValues: zip(api.parameters, values)), "\(api)")
            #expect(Router.table.filter { $0.apiRoute == api }.count == 1, "\(api)")
        }
    }

    @Test("the server's routes outside the table are the management API's")
    func serverOnlyRoutes() {
        let serverOnly = Router.table.filter { $0.apiRoute == nil }
        #expect(serverOnly == Router.administration)
        #expect(serverOnly.allSatisfy { $0.endpoint.isAdministration && $0.pattern.hasPrefix("/admin/") })
        #expect(Router.table.count == APIRoute.allCases.count + Router.administration.count)
    }

    @Test("a parameter is one percent-encoded path segment")
    func parametersEncoded() {
        #expect(APIRoute.getReport.path("R 7/ü?") == "/reports/R%207%2F%C3%BC%3F")
        #expect(APIRoute.downloadPhoto.fullPath("R-1", "abc") == "/api/v1/reports/R-1/photos/abc")
        #expect(APIRoute.downloadPhoto.parameters == ["server_id", "local_id"])
        #expect(APIRoute.rollup.path() == "/rollup")
    }

    @Test("a path segment is percent-encoded exactly as Foundation encodes it, every character up to U+07FF and beyond")
    func escapingAsFoundation() {
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;?#"))
        var texts = (0..<0x800).compactMap { Unicode.Scalar($0).map { "a\(Character($0))z" } }
        texts += ["", "R 7/ü?", "e\u{301}", "東京", "🧹🧽", "%41", "a;b?c#d", "\u{FEFF}x", "\u{10FFFF}"]
        for text in texts {
            #expect(
                APIRoute.escapeSegment(text) == text.addingPercentEncoding(withAllowedCharacters: allowed), "\(text)")
        }
    }

    /// Each call of the client and the route of the table it is meant to reach.
    static let calls: [(APIRoute, @Sendable (APIClient) async throws -> Void)] = [
        (.login, { _ = try await $0.login(username: "inspector", password: "inspector-pass") }),
        (.refresh, { _ = try await $0.refresh() }),
        (.logout, { try await $0.logout() }),
        (.me, { _ = try await $0.me() }),
        (.facilities, { _ = try await $0.facilities() }),
        (.areas, { _ = try await $0.areas(facilityID: Self.awkwardID) }),
        (.templates, { _ = try await $0.templates() }),
        (.assignments, { _ = try await $0.assignments(since: "c1") }),
        (
            .syncReports,
            {
                _ = try await $0.syncReports(
                    SyncRequest(deviceID: UUID(), appVersion: "0.1.0", schemaVersion: 1, reports: []))
            }
        ),
        (.getReport, { _ = try await $0.report(serverID: Self.awkwardID) }),
        (.getReport, { _ = try await $0.reviewedReport(serverID: Self.awkwardID, revision: 2) }),
        (.getReport, { _ = try await $0.serverReport(serverID: Self.awkwardID) }),
        (
            .patchReport,
            {
                _ = try await $0.amendReport(
                    serverID: Self.awkwardID, payload: WirePayload(answers: [:], score: nil, followUpRequired: false),
                    baseRevision: 1)
            }
        ),
        (.uploadPhoto, { _ = try await $0.uploadPhoto(Self.photo) }),
        (
            .downloadPhoto,
            { try await $0.downloadPhoto(serverID: Self.awkwardID, localID: Self.photo.localID) { _ in true } }
        ),
        (.createUpload, { _ = try await $0.beginUpload(Self.photo, byteSize: 10) }),
        (.uploadStatus, { _ = try await $0.uploadOffset(APIRoute.uploadStatus.fullPath("U-1")) }),
        (
            .appendUpload,
            {
                _ = try await $0.appendUpload(
                    APIRoute.appendUpload.fullPath("U-1"), offset: 0, file: "/dev/null", byteSize: 10)
            }
        ),
        (.inspections, { _ = try await $0.history(filter: HistoryFilter(facilityID: "F-100")) }),
        (.inspections, { _ = try await $0.reviewQueue(ReviewQueueFilter()) }),
        (.rollup, { _ = try await $0.rollup() }),
        (.reviews, { _ = try await $0.reviews(since: "c1") }),
        (
            .decideReview,
            { _ = try await $0.decide(serverID: Self.awkwardID, ReviewRequest(decision: .approve, revision: 1)) }
        ),
        (.reportEvents, { _ = try await $0.reportEvents(serverID: Self.awkwardID) }),
        (.actionFeed, { _ = try await $0.actions(since: "c1") }),
        (.getAction, { _ = try await $0.action(id: Self.awkwardID) }),
        (
            .createAction,
            { _ = try await $0.createAction(WireNewAction(id: UUID(), facilityID: "F-100", title: "Mop")) }
        ),
        (
            .updateAction,
            { _ = try await $0.updateAction(id: Self.awkwardID, WireActionChange(id: UUID(), state: .done)) }
        ),
        (
            .createActionUpload,
            {
                _ = try await $0.beginActionUpload(
                    actionID: Self.awkwardID, updateID: UUID(), localID: UUID(),
                    sha256: String(repeating: "0", count: 64),
                    byteSize: 10)
            }
        ),
    ]

    /// A server id with characters a path must encode.
    static let awkwardID = "R 7ü"
    static let photo = PhotoUpload(
        serverID: awkwardID, localID: UUID(), sha256: String(repeating: "0", count: 64), filePath: "/dev/null")

    @Test("every request of the client is matched by the server's router to the route it was built from")
    func clientPathsMatched() async throws {
        var reached: Set<APIRoute> = []
        for (expected, call) in Self.calls {
            let transport = RecordingTransport()
            let user = WireUser(id: "u1", username: "inspector", role: .inspector, displayName: "Inspector")
            let client = try APIClient(
                configuration: .init(serverURL: "http://127.0.0.1:9", appVersion: "0.1.0", deviceID: UUID()),
                transport: transport, credentials: Credentials(accessToken: "a", refreshToken: "r", user: user))
            try? await call(client)
            let sent = transport.requests
            #expect(sent.count == 1, "\(expected): \(sent.map(\.url))")
            for (method, url) in sent {
                let encoded = try #require(URLComponents(string: url)?.percentEncodedPath, "\(url)")
                // The server matches the decoded path, as its HTTP layer hands it over.
                let path = try #require(encoded.removingPercentEncoding)
                guard case .route(let route, let parameters) = Router.match(method: method, path: path) else {
                    Issue.record("\(method) \(url) of \(expected) is not served")
                    continue
                }
                #expect(route.apiRoute == expected, "\(method) \(url)")
                #expect(route.method == expected.method.rawValue)
                if expected.parameters.contains("server_id") {
                    #expect(parameters["server_id"] == Self.awkwardID, "\(url)")
                }
                if [.areas, .getAction, .updateAction, .createActionUpload].contains(expected) {
                    #expect(parameters["id"] == Self.awkwardID, "\(url)")
                }
                reached.insert(route.apiRoute ?? expected)
            }
        }
        // The device never reads the exports (operators' tools do, with their own HTTP client), nor fetches
        // an action's photo back (the console shows them).
        #expect(
            reached
                == Set(APIRoute.allCases).subtracting([
                    .exportReports, .exportActions, .exportIssues, .downloadActionPhoto,
                ]))
    }
}

/// Answers every request 500 after noting its method and url.
private final class RecordingTransport: HTTPTransport {
    private let sent = Mutex<[(method: String, url: String)]>([])

    var requests: [(method: String, url: String)] { sent.withLock { $0 } }

    private func note(_ method: String, _ url: String) -> HTTPResponse {
        sent.withLock { $0.append((method, url)) }
        return HTTPResponse(status: 500, headers: [:], body: Data())
    }

    func send(_ request: HTTPRequest) async throws(NetworkingError) -> HTTPResponse {
        note(request.method.rawValue, request.url)
    }

    /// A multipart upload is a POST.
    func upload(_ upload: MultipartUpload) async throws(NetworkingError) -> HTTPResponse { note("POST", upload.url) }

    func download(_ request: HTTPRequest, maximumBytes: Int64, into sink: @escaping DownloadSink)
        async throws(NetworkingError) -> HTTPResponse
    {
        note(request.method.rawValue, request.url)
    }

    func send(_ request: HTTPRequest, body: FileRange) async throws(NetworkingError) -> HTTPResponse {
        note(request.method.rawValue, request.url)
    }
}
