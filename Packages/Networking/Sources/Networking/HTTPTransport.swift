import Foundation

/// An HTTP method the contract uses.
public enum HTTPMethod: String, Sendable {
    /// The contract's methods, and PUT and DELETE for completeness.
    case get = "GET", post = "POST", patch = "PATCH", put = "PUT", delete = "DELETE"
    /// The headers of a GET and no body (an upload's offset, contract 1.1).
    case head = "HEAD"
}

/// Bytes of a file on disk sent as a request's body, read while it is sent:
/// a resumable upload's `PATCH`. Once any of them has gone, they are never
/// sent again by the transport on its own (on a new connection, when the
/// kept one broke under them): the request fails as a lost connection, and
/// the caller asks the server how many arrived.
public struct FileRange: Sendable, Hashable {
    /// The file.
    public var path: String
    /// The first byte sent.
    public var offset: Int64
    /// How many bytes are sent from `offset`.
    public var length: Int64

    /// `length` bytes of `path` from `offset`.
    public init(path: String, offset: Int64, length: Int64) {
        self.path = path
        self.offset = offset
        self.length = length
    }
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
    /// `finished` is called as each upload ends, with its index and result,
    /// on any thread, one call at a time: for progress while the rest go on.
    func uploadAll(
        _ uploads: [MultipartUpload], maxConcurrent: Int,
        finished: @escaping @Sendable (_ index: Int, _ result: Result<HTTPResponse, NetworkingError>) -> Void
    )
        async -> [Result<HTTPResponse, NetworkingError>]

    /// Performs a GET whose 2xx body is handed to `sink` piece by piece as it
    /// arrives, never held whole (the response's `body` is then empty); any
    /// other answer's body is kept as by `send`. More than `maximumBytes` is
    /// `tooLarge`; a `sink` that returns false stops the transfer (`transport`).
    func download(_ request: HTTPRequest, maximumBytes: Int64, into sink: @escaping DownloadSink)
        async throws(NetworkingError) -> HTTPResponse

    /// Performs `request` with `body`, bytes of a file read while they are
    /// sent, never held whole (`request.body` is ignored); throws when no
    /// HTTP response arrived. Bytes sent before a break are the server's to keep.
    func send(_ request: HTTPRequest, body: FileRange) async throws(NetworkingError) -> HTTPResponse
}

/// Where a download's bytes go as they arrive; false stops the transfer (the bytes could not be kept).
public typealias DownloadSink = @Sendable (UnsafeRawBufferPointer) -> Bool

extension HTTPTransport {
    /// A download through `send`, the body handed to `sink` once it is whole: for transports without a streamed path.
    public func download(_ request: HTTPRequest, maximumBytes: Int64, into sink: @escaping DownloadSink)
        async throws(NetworkingError) -> HTTPResponse
    {
        let response = try await send(request)
        guard (200...299).contains(response.status) else { return response }
        let target = RequestTarget(request.url)
        guard Int64(response.body.count) <= maximumBytes else {
            throw NetworkingError(
                .tooLarge, "The answer from \(target.host) was larger than \(maximumBytes) bytes; it was not kept.",
                url: target.redactedURL)
        }
        guard response.body.withUnsafeBytes({ sink($0) }) else {
            throw NetworkingError(
                .transport, "The download from \(target.host) could not be kept.", url: target.redactedURL)
        }
        return HTTPResponse(status: response.status, headers: response.headers, body: Data())
    }

    /// The file's bytes read into the request's body and sent by `send`: for
    /// transports without a streamed path (never with a large file in production).
    public func send(_ request: HTTPRequest, body: FileRange) async throws(NetworkingError) -> HTTPResponse {
        let target = RequestTarget(request.url)
        guard let handle = FileHandle(forReadingAtPath: body.path) else {
            throw NetworkingError(
                .fileUnreadable, "Could not read '\(body.path)' to send it to \(target.host).", url: target.redactedURL)
        }
        defer { try? handle.close() }
        let data: Data
        do {
            try handle.seek(toOffset: UInt64(body.offset))
            data = try handle.read(upToCount: Int(body.length)) ?? Data()
        } catch {
            throw NetworkingError(
                .fileUnreadable, "Could not read '\(body.path)' to send it to \(target.host).", url: target.redactedURL)
        }
        var request = request
        request.body = data
        return try await send(request)
    }

    /// One upload after another: for transports without a concurrent path.
    public func uploadAll(
        _ uploads: [MultipartUpload], maxConcurrent: Int,
        finished: @escaping @Sendable (_ index: Int, _ result: Result<HTTPResponse, NetworkingError>) -> Void
    )
        async -> [Result<HTTPResponse, NetworkingError>]
    {
        var results: [Result<HTTPResponse, NetworkingError>] = []
        for (index, item) in uploads.enumerated() {
            let result: Result<HTTPResponse, NetworkingError>
            do {
                result = .success(try await upload(item))
            } catch {
                result = .failure(error)
            }
            finished(index, result)
            results.append(result)
        }
        return results
    }

    /// Posts several uploads, at most `maxConcurrent` at a time, with no progress calls.
    public func uploadAll(_ uploads: [MultipartUpload], maxConcurrent: Int) async -> [Result<
        HTTPResponse, NetworkingError
    >] {
        await uploadAll(uploads, maxConcurrent: maxConcurrent, finished: { _, _ in })
    }
}
