import Foundation
import ProgramOutput
import Storage
import Synchronization
internal import CMicroHTTPD

/// An HTTP/1.1 server on libmicrohttpd, one thread per connection.
///
/// MHD parses requests and multipart bodies; this class turns each request
/// into a `ServerRequest`, hands it to `handler` once the whole body has
/// arrived, and writes the `ServerResponse`. JSON bodies are buffered up to
/// their route's limit; file parts stream to a temporary file while being
/// hashed, so a 50 MB photo never sits in memory. Bodies over a limit are
/// read and discarded, then answered 413, so the client always reads a response.
///
/// Thread safety: MHD calls the callbacks for one connection on that
/// connection's own thread, so a `RequestContext` is only ever touched by
/// one thread; the handler must itself be safe to call from many threads.
final class HTTPServer: @unchecked Sendable {
    // `daemon` is written in `start` and `stop` only, both called from the
    // owning thread; the callbacks never touch it.
    private var daemon: OpaquePointer?
    private let handler: @Sendable (ServerRequest) -> ServerResponse
    private let bodyPolicy: @Sendable (_ method: String, _ path: String) -> BodyPolicy
    private let uploadDirectory: String
    private let inFlight = Mutex(0)

    /// The port actually bound (useful with port 0).
    private(set) var port: UInt16 = 0

    /// Makes a server; nothing listens until `start`.
    init(uploadDirectory: String,
                bodyPolicy: @escaping @Sendable (_ method: String, _ path: String) -> BodyPolicy,
                handler: @escaping @Sendable (ServerRequest) -> ServerResponse) {
        self.uploadDirectory = uploadDirectory
        self.bodyPolicy = bodyPolicy
        self.handler = handler
    }

    /// Binds `host:port` and starts accepting connections.
    func start(host: String, port: UInt16) throws(ServerError) {
        let flags = MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
        let me = Unmanaged.passUnretained(self).toOpaque()
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let started: OpaquePointer?
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            started = withUnsafePointer(to: &v4) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    jqc_mhd_start(flags, $0, HTTPServer.accessHandler, me, HTTPServer.completedHandler, me, 60, 256)
                }
            }
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            started = withUnsafePointer(to: &v6) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    jqc_mhd_start(flags | MHD_USE_IPv6.rawValue, $0, HTTPServer.accessHandler, me,
                                  HTTPServer.completedHandler, me, 60, 256)
                }
            }
        } else {
            throw ServerError.badRequest("'\(host)' is not an IP address; give --host an IPv4 or IPv6 address such as 127.0.0.1")
        }
        guard let started else {
            throw ServerError.internal("could not listen on \(host):\(port); is the port already in use?")
        }
        daemon = started
        self.port = jqc_mhd_bound_port(started)
    }

    /// Stops accepting connections, lets requests in flight finish (up to
    /// `grace` seconds), then closes everything.
    func stop(grace: TimeInterval = 30) {
        guard let daemon else { return }
        let listener = MHD_quiesce_daemon(daemon)
        if listener >= 0 { close(listener) }
        let deadline = Date().addingTimeInterval(grace)
        while inFlight.withLock({ $0 }) > 0 && Date() < deadline {
            usleep(20_000)
        }
        MHD_stop_daemon(daemon)
        self.daemon = nil
    }

    // MARK: - Callbacks

    private static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, state in
        guard let cls, let connection, let state, let uploadSize else { return MHD_Result.NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        guard let existing = state.pointee else {
            let method = method.map { String(cString: $0) } ?? "GET"
            let path = url.map { String(cString: $0) } ?? "/"
            let context = RequestContext(method: method, path: path, connection: connection)
            context.policy = server.bodyPolicy(method, path)
            context.begin(uploadDirectory: server.uploadDirectory)
            server.inFlight.withLock { $0 += 1 }
            state.pointee = Unmanaged.passRetained(context).toOpaque()
            return MHD_Result.YES
        }
        let context = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if let uploadData {
                context.consume(UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee))
            }
            uploadSize.pointee = 0
            return MHD_Result.YES
        }
        guard !context.answered else { return MHD_Result.YES }
        context.answered = true
        let response = server.handler(context.finishRequest())
        return context.send(response)
    }

    private static let completedHandler: MHD_RequestCompletedCallback = { cls, _, state, _ in
        guard let cls, let state, let existing = state.pointee else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        let context = Unmanaged<RequestContext>.fromOpaque(existing).takeRetainedValue()
        state.pointee = nil
        context.cleanUp()
        server.inFlight.withLock { $0 -= 1 }
    }
}

/// The state of one request while its body arrives. Touched only by its
/// connection's thread (see `HTTPServer`).
private final class RequestContext {
    let method: String
    let path: String
    let connection: OpaquePointer
    var policy: BodyPolicy = .none
    var answered = false
    var headers: [String: String] = [:]
    var query: [String: String] = [:]

    private var buffer = Data()
    private var overLimit = false
    private var unreadable: String?
    private var postProcessor: OpaquePointer?
    private var fields: [String: String] = [:]
    private var filePath: String?
    private var fileDescriptor: Int32 = -1
    private var fileBytes: Int64 = 0
    private var fileSeen = false
    private var hasher: SHA256.Hasher?

    /// The largest text part kept (ids and hashes are far smaller).
    private static let fieldLimit = 4096

    init(method: String, path: String, connection: OpaquePointer) {
        self.method = method
        self.path = path
        self.connection = connection
    }

    func begin(uploadDirectory: String) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, RequestContext.headerIterator, me)
        MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, RequestContext.queryIterator, me)
        if case .json(let limit) = policy, let declared = headers["content-length"].flatMap(Int64.init), declared > Int64(limit) {
            overLimit = true
        }
        guard case .multipart = policy else { return }
        let contentType = headers["content-type"]?.lowercased() ?? ""
        guard contentType.hasPrefix("multipart/form-data") else {
            unreadable = "the body must be multipart/form-data, not '\(contentType.isEmpty ? "nothing" : contentType)'"
            return
        }
        postProcessor = MHD_create_post_processor(connection, 64 * 1024, RequestContext.postIterator, me)
        if postProcessor == nil {
            unreadable = "the multipart body has no boundary"
            return
        }
        let path = uploadDirectory + "/upload-" + UUID().uuidString.lowercased()
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if fd >= 0, let started = try? SHA256.Hasher() {
            fileDescriptor = fd
            filePath = path
            hasher = started
        } else {
            if fd >= 0 { close(fd); unlink(path) }
            unreadable = "the server cannot store uploads right now"
        }
    }

    func consume(_ bytes: UnsafeRawBufferPointer) {
        switch policy {
        case .none:
            return
        case .json(let limit):
            guard !overLimit else { return }
            if buffer.count + bytes.count > limit {
                overLimit = true
                buffer = Data()
            } else {
                buffer.append(contentsOf: bytes)
            }
        case .multipart:
            guard unreadable == nil, let postProcessor, let base = bytes.baseAddress else { return }
            if MHD_post_process(postProcessor, base.assumingMemoryBound(to: CChar.self), bytes.count) != MHD_Result.YES,
               unreadable == nil {
                unreadable = "the multipart body is malformed"
            }
        }
    }

    func finishRequest() -> ServerRequest {
        var request = ServerRequest(method: method, path: path, query: query, headers: headers)
        if let unreadable {
            request.body = .unreadable(unreadable)
            return request
        }
        switch policy {
        case .none:
            request.body = .none
        case .json(let limit):
            request.body = overLimit ? .tooLarge(limit: Int64(limit)) : (buffer.isEmpty ? .none : .data(buffer))
        case .multipart(let fileLimit):
            if fileDescriptor >= 0 {
                let closed = close(fileDescriptor) == 0
                fileDescriptor = -1
                if !closed, let filePath {
                    unlink(filePath)
                    request.body = .unreadable("the server could not store the upload (\(String(cString: strerror(errno))))")
                    return request
                }
            }
            if overLimit {
                request.body = .tooLarge(limit: fileLimit)
            } else {
                var file: UploadedFile?
                if fileSeen, let filePath, let hasher {
                    if let sha256 = try? hasher.finish() {
                        file = UploadedFile(temporaryPath: filePath, byteSize: fileBytes, sha256: sha256)
                    } else {
                        unlink(filePath)
                        request.body = .unreadable("the server could not hash the upload")
                        return request
                    }
                }
                request.body = .multipart(MultipartBody(fields: fields, file: file))
            }
        }
        return request
    }

    func send(_ response: ServerResponse) -> MHD_Result {
        if response.dropConnection { return MHD_Result.NO }
        var made: OpaquePointer?
        switch response.content {
        case .data(let data):
            made = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                                MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
        case .file(let path, let size):
            let fd = open(path, O_RDONLY)
            if fd >= 0 {
                made = MHD_create_response_from_fd64(UInt64(size), fd)
                if made == nil { close(fd) }
            }
        }
        guard let made else { return MHD_Result.NO }
        for header in response.headers {
            MHD_add_response_header(made, header.name, header.value)
        }
        let result = MHD_queue_response(connection, UInt32(response.status), made)
        MHD_destroy_response(made)
        return result
    }

    func cleanUp() {
        if let postProcessor { MHD_destroy_post_processor(postProcessor) }
        postProcessor = nil
        if fileDescriptor >= 0 { close(fileDescriptor) }
        fileDescriptor = -1
        if let filePath { unlink(filePath) }
        filePath = nil
    }

    private func appendFile(_ bytes: UnsafeRawBufferPointer) {
        guard case .multipart(let fileLimit) = policy else { return }
        fileSeen = true
        guard !overLimit else { return }
        if fileBytes + Int64(bytes.count) > fileLimit {
            overLimit = true
            return
        }
        hasher?.update(bytes)
        do throws(OutputError) {
            try DescriptorWriter.writeAll(fileDescriptor, bytes, target: "the upload")
        } catch {
            unreadable = "the server could not store the upload (\(error.reason))"
            return
        }
        fileBytes += Int64(bytes.count)
    }

    private static let headerIterator: MHD_KeyValueIterator = { cls, _, key, value in
        guard let cls, let key else { return MHD_Result.YES }
        let context = Unmanaged<RequestContext>.fromOpaque(cls).takeUnretainedValue()
        context.headers[String(cString: key).lowercased()] = value.map { String(cString: $0) } ?? ""
        return MHD_Result.YES
    }

    private static let queryIterator: MHD_KeyValueIterator = { cls, _, key, value in
        guard let cls, let key else { return MHD_Result.YES }
        let context = Unmanaged<RequestContext>.fromOpaque(cls).takeUnretainedValue()
        context.query[String(cString: key)] = value.map { String(cString: $0) } ?? ""
        return MHD_Result.YES
    }

    private static let postIterator: MHD_PostDataIterator = { cls, _, key, _, _, _, data, _, size in
        guard let cls, let key else { return MHD_Result.YES }
        let context = Unmanaged<RequestContext>.fromOpaque(cls).takeUnretainedValue()
        let name = String(cString: key)
        let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
        if name == "file" {
            context.appendFile(bytes)
        } else {
            let existing = context.fields[name] ?? ""
            if existing.utf8.count + bytes.count <= RequestContext.fieldLimit {
                context.fields[name] = existing + String(decoding: bytes, as: UTF8.self)
            }
        }
        return MHD_Result.YES
    }
}
