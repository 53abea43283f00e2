import Foundation
import ProgramOutput
internal import CMicroHTTPD

/// The state of one request while its head and body arrive. Used by one
/// thread at a time (see `HTTPServer`), hence `@unchecked Sendable`.
final class RequestContext: @unchecked Sendable {
    let target: String
    let connection: OpaquePointer
    let address: String
    /// The connection's key in `ConnectionDeadlines`.
    var key: UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection))) }
    var method = "GET"
    var path = "/"
    var policy: BodyPolicy = .none
    var fileLimit: Int64 = 0
    var partLimit = 8
    /// The first call of the access handler has been seen.
    var started = false
    /// The complete request was handed to a worker.
    var answered = false
    /// Answered 413 while the body was still arriving.
    var refused = false
    /// The worker's response, waiting for the connection to resume.
    var pending: ServerResponse?
    var headers: [String: String] = [:]
    var conflicting: Set<String> = []
    var query: [String: String] = [:]

    private var buffer = Data()
    private var received: Int64 = 0
    private var overLimit = false
    private var unreadable: String?
    /// The disk filled while the body's file was written: the request is answered 507.
    private var diskFull = false
    private var postProcessor: OpaquePointer?
    /// The text parts' bytes by name, decoded as UTF-8 once the body is whole.
    private var fields: [String: Data] = [:]
    private var parts = 0
    private var filePath: String?
    private var fileDescriptor: Int32 = -1
    private var fileBytes: Int64 = 0
    private var fileSeen = false
    private var hasher: BodyHasher?
    /// Where the body's bytes gather before they are written (`SpoolBuffers`); nil: written as they arrive.
    private var spool: (buffer: SpoolBuffers.Buffer, owner: SpoolBuffers)?
    /// Bytes in `spool` not yet written.
    private var spooled = 0

    /// The largest text part read (ids and hashes are far smaller; a
    /// console form's description of 4,000 characters fits); a larger one
    /// makes the body unreadable, never cut short.
    static let fieldLimit = 16 * 1024
    /// What a multipart body may carry beyond its file: the text parts and the framing.
    private static let multipartOverhead: Int64 = 256 * 1024

    init(target: String, connection: OpaquePointer, address: String) {
        self.target = target
        self.connection = connection
        self.address = address
    }

    /// Reads the headers and query of the request whose head has arrived.
    func readHead(method: String, path: String) -> RequestHead {
        self.method = method
        self.path = path
        let me = Unmanaged.passUnretained(self).toOpaque()
        MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, RequestContext.headerIterator, me)
        MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, RequestContext.queryIterator, me)
        return RequestHead(
            method: method, path: path, target: target, headers: headers,
            conflictingHeaders: conflicting.sorted(), clientAddress: address)
    }

    /// Prepares to take in the body, once the head was accepted; a file body
    /// gathers in a buffer from `spool` when one is free.
    func begin(uploadDirectory: String, spool buffers: SpoolBuffers) {
        if case .octets = policy {
            openFile(in: uploadDirectory, spool: buffers)
            return
        }
        guard case .multipart = policy else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let contentType = headers["content-type"]?.lowercased() ?? ""
        guard contentType.hasPrefix("multipart/form-data") else {
            unreadable =
                "the body must be multipart/form-data, not '\(contentType.isEmpty ? "nothing" : String(contentType.prefix(80)))'"
            return
        }
        postProcessor = MHD_create_post_processor(connection, 64 * 1024, RequestContext.postIterator, me)
        if postProcessor == nil {
            unreadable = "the multipart body has no boundary"
            return
        }
        openFile(in: uploadDirectory, spool: buffers)
    }

    /// A new file (O_EXCL, never a link: O_NOFOLLOW), written, hashed and later
    /// read through this one descriptor only, never opened again by its name.
    private func openFile(in uploadDirectory: String, spool buffers: SpoolBuffers) {
        let path = uploadDirectory + "/upload-" + UUID().uuidString.lowercased()
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd >= 0, let started = BodyHasher() {
            spool = buffers.take().map { (buffer: $0, owner: buffers) }
            fileDescriptor = fd
            filePath = path
            hasher = started
        } else {
            let cause = errno
            if fd >= 0 { close(fd); unlink(path) }
            unreadable = "the server cannot store uploads right now"
            diskFull = fd < 0 && (cause == ENOSPC || cause == EDQUOT)
        }
    }

    /// The limit the body just passed, if it did: the request is then refused at once.
    var passedLimit: Int64? {
        switch policy {
        case .none: return nil
        case .json(let limit): return overLimit ? Int64(limit) : nil
        case .multipart(let limit): return overLimit ? limit : nil
        case .octets(let limit, _): return overLimit ? limit : nil
        }
    }

    func consume(_ bytes: UnsafeRawBufferPointer) {
        received += Int64(bytes.count)
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
        case .octets:
            guard unreadable == nil else { return }
            appendFile(bytes)
        case .multipart(let fileLimit):
            if received > fileLimit + Self.multipartOverhead { overLimit = true }
            guard !overLimit, unreadable == nil, let postProcessor, let base = bytes.baseAddress else { return }
            if MHD_post_process(postProcessor, base.assumingMemoryBound(to: CChar.self), bytes.count) != MHD_Result.YES,
                unreadable == nil
            {
                unreadable = "the multipart body is malformed"
            }
        }
    }

    /// The request as it stands; `complete` is false for a body cut short.
    func finishRequest(complete: Bool = true) -> ServerRequest {
        var request = ServerRequest(method: method, path: path, query: query, headers: headers, clientAddress: address)
        if case .octets(_, let tag) = policy { request.tag = tag }
        // Every byte that arrived is in the file before anyone reads it, a body cut short's too.
        writeSpooled()
        releaseSpool()
        if diskFull {
            request.body = .storageFull
            return request
        }
        if let unreadable {
            request.body = .unreadable(unreadable)
            return request
        }
        switch policy {
        case .none:
            request.body = .none
        case .json(let limit):
            request.body = overLimit ? .tooLarge(limit: Int64(limit)) : (buffer.isEmpty ? .none : .data(buffer))
        case .octets(let limit, _):
            guard !overLimit else {
                request.body = .tooLarge(limit: limit)
                return request
            }
            guard let hasher, let sha256 = hasher.finish() else {
                request.body = .unreadable("the server could not hash the upload")
                return request
            }
            self.hasher = nil
            request.body = .octets(
                OctetBody(
                    file: UploadedFile(descriptor: fileDescriptor, byteSize: fileBytes, sha256: sha256),
                    complete: complete))
        case .multipart(let fileLimit):
            if overLimit {
                request.body = .tooLarge(limit: fileLimit)
            } else {
                var file: UploadedFile?
                if fileSeen, let filePath, let hasher {
                    if let sha256 = hasher.finish() {
                        // The descriptor stays open (and is closed when the request ends): the store reads it.
                        file = UploadedFile(descriptor: fileDescriptor, byteSize: fileBytes, sha256: sha256)
                    } else {
                        unlink(filePath)
                        request.body = .unreadable("the server could not hash the upload")
                        return request
                    }
                }
                request.body = .multipart(
                    MultipartBody(fields: fields.mapValues { String(decoding: $0, as: UTF8.self) }, file: file))
            }
        }
        return request
    }

    /// Queues `response` on the connection (every response says `nosniff`);
    /// a streamed body calls `progress` each time the client takes more of it.
    func send(_ response: ServerResponse, streams: StreamRegistry? = nil, progress: @escaping @Sendable () -> Void = {})
        -> MHD_Result
    {
        if response.dropConnection { return MHD_Result.NO }
        // From here the response's descriptor, if any, belongs to MHD or is closed below.
        var made: OpaquePointer?
        switch response.content {
        case .data(let data):
            made = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(
                    bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                    MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
        case .file(let fd, let size):
            made = MHD_create_response_from_fd64(UInt64(size), fd)
            if made == nil { close(fd) }
        case .stream(let stream):
            if let streams {
                made = StreamPump.response(for: stream, connection: connection, registry: streams, progress: progress)
            } else {
                stream.abandon()
            }
        }
        guard let made else { return MHD_Result.NO }
        for header in response.headers {
            MHD_add_response_header(made, header.name, header.value)
        }
        MHD_add_response_header(made, "X-Content-Type-Options", "nosniff")
        let result = MHD_queue_response(connection, UInt32(response.status), made)
        MHD_destroy_response(made)
        return result
    }

    /// Writes `response` straight onto the socket, then ends the sending
    /// side; the caller returns `MHD_NO` so MHD closes the connection.
    /// Used only on the connection's event thread, mid-body, when MHD itself
    /// cannot queue a response.
    func writeAndClose(_ response: ServerResponse) {
        let fd = jqc_mhd_connection_fd(connection)
        guard fd >= 0, case .data(let body) = response.content else { return }
        var head = "HTTP/1.1 \(response.status) \(response.status == 413 ? "Content Too Large" : "Error")\r\n"
        for header in response.headers { head += "\(header.name): \(header.value)\r\n" }
        head += "X-Content-Type-Options: nosniff\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Data(head.utf8) + body
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let written = Glibc.send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written <= 0 { break }
                offset += written
            }
        }
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Hands the body's file over to the caller, who closes it: `cleanUp`
    /// then only removes its name. -1 when there is none.
    func takeFile() -> Int32 {
        let descriptor = fileDescriptor
        fileDescriptor = -1
        return descriptor
    }

    func cleanUp() {
        // A response made but never sent (the client left first) still holds its file open.
        if let unsent = pending {
            switch unsent.content {
            case .file(let descriptor, _): close(descriptor)
            case .stream(let stream): stream.abandon()
            case .data: break
            }
        }
        pending = nil
        if let postProcessor { MHD_destroy_post_processor(postProcessor) }
        postProcessor = nil
        if fileDescriptor >= 0 { close(fileDescriptor) }
        fileDescriptor = -1
        if let filePath { unlink(filePath) }
        filePath = nil
        releaseSpool()
    }

    private func releaseSpool() {
        guard let spool else { return }
        spool.owner.give(spool.buffer)
        self.spool = nil
        spooled = 0
    }

    /// Writes what gathered in the spool buffer.
    private func writeSpooled() {
        guard let spool, spooled > 0 else { return }
        let count = spooled
        spooled = 0
        write(UnsafeRawBufferPointer(rebasing: spool.buffer.bytes[0..<count]))
    }

    /// Writes `bytes` to the body's file; a failure marks the body unreadable (and a full disk, full).
    private func write(_ bytes: UnsafeRawBufferPointer) {
        guard unreadable == nil, !diskFull else { return }
        do throws(OutputError) {
            try DescriptorWriter.writeAll(fileDescriptor, bytes, target: "the upload")
        } catch {
            unreadable = "the server could not store the upload (\(error.reason))"
            if error.code == .full {
                // The rest of the body is read and dropped; what was written gives its room back now.
                diskFull = true
                _ = ftruncate(fileDescriptor, 0)
            }
        }
    }

    private func appendFile(_ bytes: UnsafeRawBufferPointer) {
        fileSeen = true
        guard !overLimit, !diskFull else { return }
        if fileBytes + Int64(bytes.count) > fileLimit {
            overLimit = true
            return
        }
        hasher?.update(bytes)
        fileBytes += Int64(bytes.count)
        guard let spool, let base = bytes.baseAddress, let target = spool.buffer.bytes.baseAddress else {
            write(bytes)
            return
        }
        var offset = 0
        while offset < bytes.count, unreadable == nil, !diskFull {
            let take = min(spool.buffer.bytes.count - spooled, bytes.count - offset)
            (target + spooled).copyMemory(from: base + offset, byteCount: take)
            spooled += take
            offset += take
            if spooled == spool.buffer.bytes.count { writeSpooled() }
        }
    }

    private static let headerIterator: MHD_KeyValueIterator = { cls, _, key, value in
        guard let cls, let key else { return MHD_Result.YES }
        let context = Unmanaged<RequestContext>.fromOpaque(cls).takeUnretainedValue()
        let name = String(cString: key).lowercased()
        let text = value.map { String(cString: $0) } ?? ""
        if let earlier = context.headers[name], earlier != text { context.conflicting.insert(name) }
        context.headers[name] = text
        return MHD_Result.YES
    }

    private static let queryIterator: MHD_KeyValueIterator = { cls, _, key, value in
        guard let cls, let key else { return MHD_Result.YES }
        let context = Unmanaged<RequestContext>.fromOpaque(cls).takeUnretainedValue()
        context.query[String(cString: key)] = value.map { String(cString: $0) } ?? ""
        return MHD_Result.YES
    }

    private static let postIterator: MHD_PostDataIterator = { cls, _, key, _, _, _, data, offset, size in
        guard let cls, let key else { return MHD_Result.YES }
        let context = Unmanaged<RequestContext>.fromOpaque(cls).takeUnretainedValue()
        if offset == 0 {
            context.parts += 1
            if context.parts > context.partLimit {
                context.unreadable = "the multipart body has more than \(context.partLimit) parts"
                return MHD_Result.NO
            }
        }
        let name = String(cString: key)
        let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
        if name == "file" {
            context.appendFile(bytes)
        } else {
            let held = context.fields[name, default: Data()]
            guard held.count + bytes.count <= RequestContext.fieldLimit else {
                context.unreadable = "a text part of the body is over \(RequestContext.fieldLimit) bytes"
                return MHD_Result.NO
            }
            context.fields[name, default: Data()].append(contentsOf: bytes)
        }
        return MHD_Result.YES
    }
}
