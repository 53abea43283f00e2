import Foundation

/// How the HTTP layer should take in a request's body, decided from the
/// method and path before the first byte of it arrives.
public enum BodyPolicy: Sendable, Equatable {
    /// Read nothing; any body is discarded.
    case none
    /// Buffer a JSON body up to `limit` bytes; beyond it the request is answered 413.
    case json(limit: Int)
    /// Parse `multipart/form-data`, streaming the `file` part to a temporary
    /// file while hashing it; a file beyond `fileLimit` bytes is answered 413.
    case multipart(fileLimit: Int64)
    /// Stream the raw body to a temporary file while hashing it; a body
    /// beyond `limit` bytes is answered 413. A body cut short (the client
    /// gone mid-way) is still handed over, to `HTTPServer`'s `abandoned`,
    /// with what arrived. `tag` is the screen's own number for the request,
    /// given back in `ServerRequest.tag`.
    case octets(limit: Int64, tag: UInt64)
}

/// A file part of a multipart body, already on disk and hashed.
public struct UploadedFile: Sendable, Equatable {
    /// The descriptor of the temporary file the bytes were written through,
    /// open for reading and writing until the request ends (the file is then
    /// closed and removed): the one way to the bytes that were hashed (its
    /// name could be replaced; the descriptor cannot).
    public var descriptor: Int32
    /// How many bytes arrived.
    public var byteSize: Int64
    /// Lowercase hex SHA-256 of the bytes.
    public var sha256: String
}

/// A multipart body: its small text fields and at most one file.
public struct MultipartBody: Sendable, Equatable {
    /// Text parts by name (`local_id`, `sha256`, ...).
    public var fields: [String: String]
    /// The `file` part, when one was sent.
    public var file: UploadedFile?
}

/// A raw body (`BodyPolicy.octets`), on disk and hashed, whole or cut short.
public struct OctetBody: Sendable, Equatable {
    /// The bytes that arrived, through the descriptor they were written through.
    public var file: UploadedFile
    /// False when the connection ended before the body did: `file` holds what came.
    public var complete: Bool
}

/// A request's body as the HTTP layer took it in.
public enum RequestBody: Sendable, Equatable {
    case none
    case data(Data)
    case multipart(MultipartBody)
    case octets(OctetBody)
    /// Over the route's limit; the bytes were discarded.
    case tooLarge(limit: Int64)
    /// The body could not be parsed as the route expects (not multipart, broken framing).
    case unreadable(String)
    /// The server's disk (or its quota) filled while the body was written to
    /// it (`ENOSPC`, `EDQUOT`); what was written is given back at once.
    case storageFull
}

/// What the HTTP layer knows of a request once its headers have arrived,
/// before any of its body: enough to refuse it (401, 413, 415, 400) unread.
public struct RequestHead: Sendable {
    public var method: String
    /// The decoded path, without the query.
    public var path: String
    /// The request target exactly as sent (still percent-encoded).
    public var target: String
    /// Header values by lowercased name.
    public var headers: [String: String]
    /// Names (lowercased) of headers sent more than once with different values.
    public var conflictingHeaders: [String]
    /// The client's IP address as text.
    public var clientAddress: String
}

/// One HTTP request, complete, as the router sees it.
public struct ServerRequest: Sendable {
    public var method: String
    /// The decoded path, without the query.
    public var path: String
    /// Query arguments; the last value wins when a name repeats.
    public var query: [String: String]
    /// Header values by lowercased name.
    public var headers: [String: String]
    public var body: RequestBody
    /// The client's IP address as text.
    public var clientAddress: String
    /// The screen's number for a request read as `BodyPolicy.octets`; 0 otherwise.
    public var tag: UInt64 = 0

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: RequestBody = .none, clientAddress: String = ""
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.clientAddress = clientAddress
    }
}

/// One HTTP response, or the instruction to close the connection without one.
public struct ServerResponse: Sendable {
    /// What the response carries.
    public enum Content: Sendable {
        case data(Data)
        /// A file streamed from an open descriptor, closed once sent (or not).
        case file(descriptor: Int32, byteSize: Int64)
        /// A body of unknown length produced while it is sent (chunked transfer encoding).
        case stream(ResponseStream)
    }

    /// The HTTP status.
    public var status: Int
    /// Headers beyond those the server always sends.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var content: Content
    /// Close the connection without answering (fault injection).
    public var dropConnection: Bool

    /// Makes a response.
    public init(
        status: Int, headers: [(name: String, value: String)] = [], content: Content = .data(Data()),
        dropConnection: Bool = false
    ) {
        self.status = status
        self.headers = headers
        self.content = content
        self.dropConnection = dropConnection
    }

    /// A response that closes the connection without a status line.
    public static var drop: ServerResponse { ServerResponse(status: 0, dropConnection: true) }
}
