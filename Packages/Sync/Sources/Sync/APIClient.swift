import APIRoutes
import Foundation
import Models
import Networking

/// A signed-in session: the tokens and the user they belong to.
///
/// Its descriptions never show the tokens, so it can be printed or logged.
public struct Credentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable
{
    /// The bearer token sent on every authenticated request.
    public var accessToken: String
    /// The token that buys the next access token; spent on use (it rotates).
    public var refreshToken: String
    /// Who is signed in.
    public var user: WireUser

    /// Credentials as persisted by the app or just granted by the server.
    public init(accessToken: String, refreshToken: String, user: WireUser) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.user = user
    }

    /// Credentials from a login or refresh answer.
    public init(_ grant: TokenGrant) {
        self.init(accessToken: grant.accessToken, refreshToken: grant.refreshToken, user: grant.user)
    }

    /// The user, with the tokens redacted.
    public var description: String {
        "Credentials(user: \(user.username), role: \(user.role.rawValue), tokens redacted)"
    }
    /// Same as `description`: the tokens never appear.
    public var debugDescription: String { description }
    /// Mirrors only the user, so `dump` and reflection never show the tokens.
    public var customMirror: Mirror { Mirror(self, children: ["user": user]) }
}

/// The client of the wire contract (docs/contract.md): every endpoint, the envelope, typed errors, one
/// refresh-and-retry on 401 and `Retry-After`.
///
/// An actor: it holds the current `Credentials`, which a refresh replaces,
/// and concurrent requests that meet the same expired token share one
/// refresh (refresh tokens rotate, so two refreshes with one token would end
/// the session). Every change of credentials is reported through
/// `onTokensChanged`, in order, so the app can persist rotated tokens;
/// `nil` means the server ended the session. When the app cannot keep new
/// tokens (it throws `sessionNotSaved`), the request that brought them fails
/// with that error: the person hears of it now, not when the next run finds
/// the session over.
public actor APIClient {
    /// Where the server is and who this device is.
    public struct Configuration: Sendable, Hashable {
        /// `https://host[:port]` or `http://127.0.0.1:port`, without `/api/v1`.
        public var serverURL: String
        /// Sent as `X-JQC-App-Version`.
        public var appVersion: String
        /// Sent as `X-JQC-Device-Id`.
        public var deviceID: UUID
        /// A 429 or 503 whose `Retry-After` is at most this many seconds is waited out
        /// and tried once more; a longer one is returned at once in `APIError.retryAfter`
        /// for the caller to schedule. Zero never waits.
        public var longestRetryAfterWait: Double

        /// A configuration; the server URL is checked when the client is made.
        public init(serverURL: String, appVersion: String, deviceID: UUID, longestRetryAfterWait: Double = 5) {
            self.serverURL = serverURL
            self.appVersion = appVersion
            self.deviceID = deviceID
            self.longestRetryAfterWait = longestRetryAfterWait
        }
    }

    /// Called with the new credentials after every login and refresh, and with `nil`
    /// after logout or when the server refuses the refresh token.
    public typealias TokensChanged = @Sendable (Credentials?) throws(APIError) -> Void

    let configuration: Configuration
    let transport: any HTTPTransport
    /// `serverURL` + `APIRoute.basePath` (`/api/v1`), without a trailing slash.
    let apiBase: String
    /// `host:port`, for messages.
    let host: String
    private let onTokensChanged: TokensChanged
    /// The session in use; nil before login and after the server ended it.
    public private(set) var credentials: Credentials?
    private var refreshing: Task<Result<Credentials, APIError>, Never>?

    /// A client for `configuration.serverURL` over `transport`, starting with
    /// `credentials` (persisted by the app) or none. Refuses plain `http://`
    /// to any host but the loopback address (`ServerURLRule`): every request
    /// goes through a client, so none is sent in cleartext over a network.
    public init(
        configuration: Configuration, transport: any HTTPTransport, credentials: Credentials? = nil,
        onTokensChanged: @escaping TokensChanged = { _ in }
    ) throws(APIError) {
        var base = configuration.serverURL.trimmingCharacters(in: .whitespaces)
        while base.hasSuffix("/") { base.removeLast() }
        if base.hasSuffix(APIRoute.basePath) { base.removeLast(APIRoute.basePath.count) }
        guard let components = URLComponents(string: base), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let name = components.host, !name.isEmpty,
            components.user == nil, components.password == nil, components.query == nil, components.fragment == nil
        else {
            throw APIError(
                .transport,
                "'\(configuration.serverURL)' is not a server URL; use https://HOST or http://127.0.0.1:PORT.")
        }
        guard scheme == "https" || ServerURLRule.isLoopback(name) else {
            throw APIError(.transport, ServerURLRule.refusal(base, host: name))
        }
        self.configuration = configuration
        self.transport = transport
        self.apiBase = base + APIRoute.basePath
        self.host = components.port.map { "\(name):\($0)" } ?? name
        self.credentials = credentials
        self.onTokensChanged = onTokensChanged
    }

    // MARK: - Requests

    /// How one route of the contract's table is called.
    struct Call {
        var method: HTTPMethod
        /// The route's path with its parameters filled in, under `apiBase`.
        var path: String
        var query: [(String, String)] = []
        var body: Data? = nil
        /// Sends `Authorization: Bearer` and refreshes once on 401.
        var authenticated = true
        /// Refreshes and retries once on a 401 (every authenticated call but logout).
        var refreshOn401 = true

        /// A call of `route` with `parameters` in its path template, in order.
        init(
            _ route: APIRoute, _ parameters: String..., query: [(String, String)] = [], body: Data? = nil,
            authenticated: Bool = true, refreshOn401: Bool = true
        ) {
            method = HTTPMethod(route.method)
            path = route.path(filling: parameters)
            self.query = query
            self.body = body
            self.authenticated = authenticated
            self.refreshOn401 = refreshOn401
        }
    }

    /// Performs `call` and decodes the envelope's `data` as `Payload`. `reading`,
    /// when given, reads the usual answers from their bytes first; whatever it
    /// leaves (nil) is decoded, and refused, as without it.
    func perform<Payload: Decodable & Sendable>(
        _ call: Call, as type: Payload.Type,
        reading: (Data) -> Payload? = { _ in nil }
    ) async throws(APIError) -> (Payload, status: Int) {
        let url = self.url(call.path, call.query)
        let response = try await exchange(authenticated: call.authenticated, refreshOn401: call.refreshOn401) {
            (token: String?) async throws(NetworkingError) -> HTTPResponse in
            try await self.transport.send(
                HTTPRequest(
                    method: call.method, url: url,
                    headers: self.headers(token: token, json: true), body: call.body))
        }
        if let read = reading(response.body) { return (read, response.status) }
        return (try decode(response, as: type), response.status)
    }

    /// Sends through `send` with the current access token; on a 401 refreshes once and sends once more;
    /// on a short `Retry-After` waits and sends once more. Returns only 2xx answers.
    func exchange(
        authenticated: Bool, refreshOn401: Bool = true,
        _ send: @Sendable (String?) async throws(NetworkingError) -> HTTPResponse
    ) async throws(APIError) -> HTTPResponse {
        var refreshed = !refreshOn401
        var waited = false
        while true {
            var token: String?
            if authenticated {
                guard let current = credentials else { throw APIError(.authRequired, APIError.signInAgain) }
                token = current.accessToken
            }
            let response: HTTPResponse
            do {
                response = try await send(token)
            } catch {
                throw APIError(error)
            }
            if (200...299).contains(response.status) { return response }
            if response.status == 401 && authenticated && !refreshed {
                refreshed = true
                try await refreshAfterRejection(of: token)
                continue
            }
            let failure = APIError.from(response, host: host, authenticated: authenticated)
            if !waited, let wait = failure.retryAfter, wait <= configuration.longestRetryAfterWait,
                failure.code == .rateLimited || failure.code == .unavailable
            {
                waited = true
                do {
                    try await Task.sleep(for: .milliseconds(Int64((wait * 1000).rounded())))
                } catch {
                    throw APIError(.cancelled, "The request to \(host) was cancelled.")
                }
                continue
            }
            throw failure
        }
    }

    /// The envelope's `data` from a 2xx answer; anything else is `invalidResponse`.
    func decode<Payload: Decodable & Sendable>(_ response: HTTPResponse, as type: Payload.Type) throws(APIError)
        -> Payload
    {
        do {
            switch try JSONDecoder().decode(Envelope<Payload>.self, from: response.body) {
            case .success(let payload):
                return payload
            case .failure:
                throw APIError.notTheAPI(response, host: host)
            }
        } catch {
            throw APIError.notTheAPI(response, host: host)
        }
    }

    /// The headers of every request: version, device, bearer token when signed in, JSON.
    nonisolated func headers(token: String?, json: Bool) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [
            ("X-JQC-App-Version", configuration.appVersion),
            ("X-JQC-Device-Id", configuration.deviceID.uuidString.lowercased()),
            ("Accept", "application/json"),
        ]
        if json { headers.append(("Content-Type", "application/json")) }
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        return headers
    }

    /// The full URL of a path under `APIRoute.basePath` (a route's `path`), with a query string.
    nonisolated func url(_ path: String, _ query: [(String, String)] = []) -> String {
        guard !query.isEmpty else { return apiBase + path }
        let pairs = query.map { "\(Self.escape($0.0, .queryValue))=\(Self.escape($0.1, .queryValue))" }
        return apiBase + path + "?" + pairs.joined(separator: "&")
    }

    /// A query name or value, percent-encoded.
    static func escape(_ text: String, _ allowed: CharacterSet) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// JSON for a request body.
    func encode<Body: Encodable>(_ body: Body) throws(APIError) -> Data {
        do {
            return try JSONEncoder().encode(body)
        } catch {
            throw APIError(.transport, "Could not encode the request to \(host) as JSON.")
        }
    }

    // MARK: - Credentials

    /// Uses new credentials and has the app keep them; throws when it cannot
    /// (they stay in use for this client, which is all that still works).
    func keep(_ new: Credentials) throws(APIError) {
        credentials = new
        try onTokensChanged(new)
    }

    /// Forgets the credentials and tells the app the session is over. What the
    /// app does with that (delete its copy) cannot make things worse: the
    /// server refuses the old tokens whatever the device keeps.
    func forget() {
        credentials = nil
        do throws(APIError) { try onTokensChanged(nil) } catch {
            // Nothing to keep: the session is over on the server either way.
        }
    }

    /// After a 401 to `rejected`: refresh, unless another request already did.
    private func refreshAfterRejection(of rejected: String?) async throws(APIError) {
        if let current = credentials, current.accessToken != rejected { return }
        _ = try await sharedRefresh()
    }

    /// One refresh at a time: every caller waiting meanwhile gets its outcome.
    func sharedRefresh() async throws(APIError) -> Credentials {
        if let running = refreshing { return try await running.value.get() }
        let task = Task { await self.refreshOnce() }
        refreshing = task
        let outcome = await task.value
        refreshing = nil
        return try outcome.get()
    }

    private func refreshOnce() async -> Result<Credentials, APIError> {
        guard let spent = credentials?.refreshToken else {
            return .failure(APIError(.authRequired, APIError.signInAgain))
        }
        do throws(APIError) {
            let body = try encode(RefreshRequest(refreshToken: spent))
            let (grant, _) = try await perform(
                Call(.refresh, body: body, authenticated: false),
                as: TokenGrant.self)
            let renewed = Credentials(grant)
            try keep(renewed)
            return .success(renewed)
        } catch  where error.code == .authRequired {
            // The refresh token is spent, revoked or unknown: the session is over.
            if credentials?.refreshToken == spent { forget() }
            return .failure(
                APIError(.authRequired, APIError.signInAgain, status: error.status, serverCode: error.serverCode))
        } catch {
            return .failure(error)
        }
    }
}

extension CharacterSet {
    /// Characters left as they are in one query name or value.
    static let queryValue = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+;?#/"))
}
