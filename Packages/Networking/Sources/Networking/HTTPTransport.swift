import Foundation

/// An HTTP method the contract uses.
public enum HTTPMethod: String, Sendable {
    /// The contract's methods, and PUT and DELETE for completeness.
    case get = "GET", post = "POST", patch = "PATCH", put = "PUT", delete = "DELETE"
}

/// One request: everything the transport needs, nothing it must guess.
public struct HTTPRequest: Sendable {
    /// The method.
    public var method: HTTPMethod
    /// The absolute `http` or `https` URL.
    public var url: String
    /// Request headers, in order; a name may repeat.
    public var headers: [(name: String, value: String)]
    /// The body, sent as is; nil sends none.
    public var body: Data?

    /// A request; GET with no headers and no body unless told otherwise.
    public init(method: HTTPMethod, url: String, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One response: status, headers (names lowercased) and body.
public struct HTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Headers by lowercased name; repeated headers joined with ", ".
    public var headers: [String: String]
    /// The body, decompressed.
    public var body: Data

    /// A response.
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

    /// Posts one `multipart/form-data` upload whose file is streamed from disk,
    /// never read whole into memory; throws when no HTTP response arrived.
    func upload(_ upload: MultipartUpload) async throws(NetworkingError) -> HTTPResponse

    /// Posts several uploads, at most `maxConcurrent` at a time; one result per
    /// upload, in input order. One failing never stops the others.
    func uploadAll(_ uploads: [MultipartUpload], maxConcurrent: Int) async -> [Result<HTTPResponse, NetworkingError>]
}

extension HTTPTransport {
    /// One upload after another: for transports without a concurrent path.
    public func uploadAll(_ uploads: [MultipartUpload], maxConcurrent: Int) async -> [Result<HTTPResponse, NetworkingError>] {
        var results: [Result<HTTPResponse, NetworkingError>] = []
        for item in uploads {
            do {
                results.append(.success(try await upload(item)))
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }
}
