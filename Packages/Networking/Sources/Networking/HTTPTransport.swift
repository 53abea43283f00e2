import Foundation

/// An HTTP method the contract uses.
public enum HTTPMethod: String, Sendable {
    case get = "GET", post = "POST", patch = "PATCH", put = "PUT", delete = "DELETE"
}

/// One request: everything the transport needs, nothing it must guess.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: Data?

    public init(method: HTTPMethod, url: String, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One response: status, headers (names lowercased) and body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// The seam between Sync and the network: Sync depends on this protocol,
/// the libcurl implementation stands behind it, and tests can hand Sync a
/// real loopback server through the same implementation.
public protocol HTTPTransport: Sendable {
    /// Performs one request; throws `NetworkingError` when no HTTP response arrived.
    func send(_ request: HTTPRequest) async throws(NetworkingError) -> HTTPResponse
}
