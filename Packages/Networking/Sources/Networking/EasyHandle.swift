internal import CCurl
import Foundation

/// Owns one libcurl easy handle (`CURL *`) for one transfer: its options,
/// the header list and form it sends, and the response it collects.
///
/// Deliberately not `Sendable`. Exactly one thread touches a handle: the
/// worker thread that created it, configured it and runs the transfer
/// (`curl_easy_perform`, or the multi loop of `MultiHandle`). libcurl's
/// callbacks run on that same thread, inside the perform call, so the
/// mutable response state needs no lock. Only `HTTPResponse` and
/// `NetworkingError` values, which are `Sendable`, leave that thread.
final class EasyHandle {
    /// The raw handle; valid until `deinit`.
    let raw: UnsafeMutableRawPointer
    private let url: String
    /// The url's host and redacted form, made only when a message needs them.
    private lazy var target = RequestTarget(url)
    private let maximumResponseBytes: Int
    private let cancellation: TransferCancellation?
    private var headerList: HeaderList?
    private var resolveList: HeaderList?
    private var form: MultipartBody?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var body = Data()
    private var headers: [String: String] = [:]
    private var exceededLimit = false

    /// A handle for `url` with the transport's fixed security and timeout settings.
    init(url: String, options: CurlTransport.Options, cancellation: TransferCancellation?) throws(NetworkingError) {
        self.url = url
        guard CurlGlobal.ready, let handle = curl_easy_init() else {
            let target = RequestTarget(url)
            throw NetworkingError(
                .transport, "Could not start a request to \(target.host): libcurl failed to initialise.",
                url: target.redactedURL)
        }
        raw = handle
        maximumResponseBytes = options.maximumResponseBytes
        self.cancellation = cancellation
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        try configure(url: url, options: options)
    }

    deinit {
        // The handle first: libcurl may still refer to the form and headers until it is cleaned up.
        curl_easy_cleanup(raw)
        form = nil
        headerList = nil
        resolveList = nil
        errorBuffer.deallocate()
    }

    // MARK: - Options

    private func configure(url: String, options: CurlTransport.Options) throws(NetworkingError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var ok = true
        ok = ok && jqc_easy_setopt_string(raw, CURLOPT_URL, url) == CURLE_OK
        // Only HTTP and HTTPS, also after a redirect (never file://, ftp://, ...).
        ok = ok && jqc_easy_setopt_string(raw, CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_OK
        ok = ok && jqc_easy_setopt_string(raw, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") == CURLE_OK
        // Timeouts use no signals: several transfers run on several threads.
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_NOSIGNAL, 1) == CURLE_OK
        ok =
            ok
            && jqc_easy_setopt_long(raw, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(options.connectTimeout))
                == CURLE_OK
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_TIMEOUT_MS, Self.milliseconds(options.totalTimeout)) == CURLE_OK
        // TLS verification is always on; there is deliberately no option to turn it off.
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_SSL_VERIFYPEER, 1) == CURLE_OK
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_SSL_VERIFYHOST, 2) == CURLE_OK
        if let caPath = options.caCertificatePath {
            ok = ok && jqc_easy_setopt_string(raw, CURLOPT_CAINFO, caPath) == CURLE_OK
        }
        // An empty string offers every encoding this libcurl decodes (gzip, deflate, br, zstd)
        // and decodes the body before the write callback sees it, so the size limit counts decoded bytes.
        ok = ok && jqc_easy_setopt_string(raw, CURLOPT_ACCEPT_ENCODING, "") == CURLE_OK
        // Refuse early when the declared length is already over the limit.
        ok =
            ok
            && jqc_easy_setopt_off_t(raw, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(options.maximumResponseBytes))
                == CURLE_OK
        ok = ok && jqc_easy_setopt_string(raw, CURLOPT_USERAGENT, options.userAgent) == CURLE_OK
        ok = ok && jqc_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer) == CURLE_OK
        // CURLOPT_PROXY is left unset unless proxies are refused: libcurl then reads
        // http_proxy, https_proxy, all_proxy and no_proxy from the environment itself.
        if !options.usesProxyEnvironment {
            ok = ok && jqc_easy_setopt_string(raw, CURLOPT_PROXY, "") == CURLE_OK
        }
        if !options.pinnedAddresses.isEmpty {
            let list = HeaderList(lines: options.pinnedAddresses)
            resolveList = list
            ok = ok && jqc_easy_setopt_slist(raw, CURLOPT_RESOLVE, list.raw) == CURLE_OK
        }

        ok =
            ok
            && jqc_easy_setopt_write_function(raw, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                EasyHandle.received(data, size * count, context)
            } == CURLE_OK
        ok = ok && jqc_easy_setopt_pointer(raw, CURLOPT_WRITEDATA, me) == CURLE_OK
        ok =
            ok
            && jqc_easy_setopt_write_function(raw, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                EasyHandle.receivedHeader(data, size * count, context)
            } == CURLE_OK
        ok = ok && jqc_easy_setopt_pointer(raw, CURLOPT_HEADERDATA, me) == CURLE_OK
        ok =
            ok
            && jqc_easy_setopt_xferinfo_function(raw) { context, _, _, _, _ in
                EasyHandle.progress(context)
            } == CURLE_OK
        ok = ok && jqc_easy_setopt_pointer(raw, CURLOPT_XFERINFODATA, me) == CURLE_OK
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_NOPROGRESS, 0) == CURLE_OK
        guard ok else {
            throw NetworkingError(
                .transport, "Could not set up the request to \(target.host): libcurl refused an option.",
                url: target.redactedURL)
        }
    }

    /// Sets the method, headers and body of a plain request.
    func prepare(_ request: HTTPRequest) throws(NetworkingError) {
        var ok = setHeaders(request.headers)
        switch request.method {
        case .get:
            ok = ok && jqc_easy_setopt_long(raw, CURLOPT_HTTPGET, 1) == CURLE_OK
        case .head:
            ok = ok && jqc_easy_setopt_long(raw, CURLOPT_NOBODY, 1) == CURLE_OK
        default:
            if request.method != .post {
                ok = ok && jqc_easy_setopt_string(raw, CURLOPT_CUSTOMREQUEST, request.method.rawValue) == CURLE_OK
            }
            if request.method != .delete || request.body != nil {
                let bytes = request.body ?? Data()
                ok = ok && jqc_easy_setopt_off_t(raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count)) == CURLE_OK
                // COPYPOSTFIELDS copies the bytes into the handle, so nothing here must outlive the call.
                if bytes.isEmpty {
                    ok = ok && jqc_easy_setopt_string(raw, CURLOPT_COPYPOSTFIELDS, "") == CURLE_OK
                } else {
                    ok =
                        ok
                        && bytes.withUnsafeBytes { buffer in
                            jqc_easy_setopt_string(
                                raw, CURLOPT_COPYPOSTFIELDS, buffer.bindMemory(to: CChar.self).baseAddress) == CURLE_OK
                        }
                }
            }
        }
        guard ok else {
            throw NetworkingError(
                .transport, "Could not set up the request to \(target.host): libcurl refused the body or headers.",
                url: target.redactedURL)
        }
    }

    /// Sets a streamed `multipart/form-data` POST; long uploads are bounded by a
    /// minimum speed over a window instead of a total time cap.
    func prepare(_ upload: MultipartUpload, options: CurlTransport.Options) throws(NetworkingError) {
        let body = try MultipartBody(upload, on: raw, host: target.host)
        form = body
        var ok = setHeaders(upload.headers)
        ok = ok && jqc_easy_setopt_mime(raw, body.raw) == CURLE_OK
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_TIMEOUT_MS, 0) == CURLE_OK
        ok =
            ok
            && jqc_easy_setopt_long(raw, CURLOPT_LOW_SPEED_LIMIT, max(1, options.uploadMinimumBytesPerSecond))
                == CURLE_OK
        ok =
            ok
            && jqc_easy_setopt_long(raw, CURLOPT_LOW_SPEED_TIME, max(1, Int(options.uploadStallTimeout.rounded(.up))))
                == CURLE_OK
        guard ok else {
            throw NetworkingError(
                .transport, "Could not set up the upload to \(target.host): libcurl refused the form.",
                url: target.redactedURL)
        }
    }

    /// Sets `method` with a body streamed from `source`, no total time cap
    /// (a large photo on a slow link), given up below the minimum speed as uploads are.
    func prepare(
        _ method: HTTPMethod, headers: [(name: String, value: String)], streaming source: FileSource,
        options: CurlTransport.Options
    ) throws(NetworkingError) {
        // No `Expect: 100-continue`: the server reads the body before it answers anyway.
        var ok = setHeaders(headers + [(name: "Expect", value: "")])
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_UPLOAD, 1) == CURLE_OK
        ok = ok && jqc_easy_setopt_string(raw, CURLOPT_CUSTOMREQUEST, method.rawValue) == CURLE_OK
        ok = ok && jqc_easy_setopt_off_t(raw, CURLOPT_INFILESIZE_LARGE, curl_off_t(source.length)) == CURLE_OK
        ok = ok && source.attach(to: raw)
        // A phone photo in one or two reads of the file, not a read for every 64 KiB (libcurl's default buffer).
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_UPLOAD_BUFFERSIZE, 512 * 1024) == CURLE_OK
        ok = ok && jqc_easy_setopt_long(raw, CURLOPT_TIMEOUT_MS, 0) == CURLE_OK
        ok =
            ok
            && jqc_easy_setopt_long(raw, CURLOPT_LOW_SPEED_LIMIT, max(1, options.uploadMinimumBytesPerSecond))
                == CURLE_OK
        ok =
            ok
            && jqc_easy_setopt_long(raw, CURLOPT_LOW_SPEED_TIME, max(1, Int(options.uploadStallTimeout.rounded(.up))))
                == CURLE_OK
        guard ok else {
            throw NetworkingError(
                .transport, "Could not set up the upload to \(target.host): libcurl refused an option.",
                url: target.redactedURL)
        }
    }

    private func setHeaders(_ headers: [(name: String, value: String)]) -> Bool {
        let list = HeaderList(headers)
        headerList = list
        return jqc_easy_setopt_slist(raw, CURLOPT_HTTPHEADER, list.raw) == CURLE_OK
    }

    // MARK: - Transfer

    /// Runs the transfer on the calling thread, which blocks until it ends.
    func perform() -> Result<HTTPResponse, NetworkingError> {
        finish(curl_easy_perform(raw))
    }

    /// The outcome of a transfer that ended with `code` (from `perform` or the multi loop).
    func finish(_ code: CURLcode) -> Result<HTTPResponse, NetworkingError> {
        guard code == CURLE_OK else { return .failure(error(for: code)) }
        var status = 0
        guard jqc_easy_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK, status > 0 else {
            return .failure(
                NetworkingError(
                    .connectionLost, "\(target.host) closed the connection without an HTTP answer.",
                    url: target.redactedURL))
        }
        return .success(HTTPResponse(status: status, headers: headers, body: body))
    }

    private func error(for code: CURLcode) -> NetworkingError {
        let host = target.host
        let url = target.redactedURL
        if exceededLimit || code == CURLE_FILESIZE_EXCEEDED {
            return NetworkingError(
                .tooLarge, "The answer from \(host) was larger than \(maximumResponseBytes) bytes; it was not kept.",
                url: url)
        }
        if cancellation?.isCancelled == true || code == CURLE_ABORTED_BY_CALLBACK {
            return NetworkingError(.cancelled, "The request to \(host) was cancelled.", url: url)
        }
        let detail = self.detail(for: code)
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
            return NetworkingError(.unreachable, "Could not reach \(host): \(detail).", url: url)
        case CURLE_OPERATION_TIMEDOUT:
            return NetworkingError(.timedOut, "\(host) did not answer in time: \(detail).", url: url)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
            CURLE_USE_SSL_FAILED, CURLE_SSL_CLIENTCERT:
            return NetworkingError(
                .tls,
                "The secure connection to \(host) failed: \(detail). "
                    + "Check the server's certificate, or name its CA with --cacert.", url: url)
        case CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return NetworkingError(
                .connectionLost, "The connection to \(host) broke before a complete answer: \(detail).", url: url)
        case CURLE_SEND_FAIL_REWIND:
            // A file's bytes that had gone on a connection that broke, which are not sent again by themselves.
            return NetworkingError(
                .connectionLost, "The connection to \(host) broke while the request's bytes were sent: \(detail).",
                url: url)
        case CURLE_READ_ERROR:
            return NetworkingError(
                .fileUnreadable, "The file being uploaded to \(host) could not be read: \(detail).", url: url)
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL:
            return NetworkingError(
                .transport, "'\(url)' is not an http or https URL libcurl can use: \(detail).", url: url)
        default:
            return NetworkingError(.transport, "The request to \(host) failed: \(detail).", url: url)
        }
    }

    /// libcurl's own detail for the failure, on one line without a final period.
    private func detail(for code: CURLcode) -> String {
        var text = String(cString: errorBuffer)
        if text.isEmpty, let fallback = curl_easy_strerror(code) { text = String(cString: fallback) }
        text = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        while text.hasSuffix(".") || text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    // MARK: - Callbacks (static: they capture nothing and find the handle through user data)

    private static func handle(_ context: UnsafeMutableRawPointer?) -> EasyHandle? {
        context.map { Unmanaged<EasyHandle>.fromOpaque($0).takeUnretainedValue() }
    }

    private static func received(
        _ data: UnsafeMutablePointer<CChar>?, _ length: Int, _ context: UnsafeMutableRawPointer?
    ) -> Int {
        guard let handle = handle(context) else { return 0 }
        guard length > 0, let data else { return length }
        if handle.body.count + length > handle.maximumResponseBytes {
            handle.exceededLimit = true
            return 0 // anything but `length` makes libcurl abort the transfer
        }
        data.withMemoryRebound(to: UInt8.self, capacity: length) { handle.body.append($0, count: length) }
        return length
    }

    private static func receivedHeader(
        _ data: UnsafeMutablePointer<CChar>?, _ length: Int,
        _ context: UnsafeMutableRawPointer?
    ) -> Int {
        guard let handle = handle(context) else { return 0 }
        guard length > 0, let data else { return length }
        data.withMemoryRebound(to: UInt8.self, capacity: length) {
            handle.header(line: UnsafeBufferPointer(start: $0, count: length))
        }
        return length
    }

    /// Keeps one header line. Read as bytes: headers are ASCII framing, and
    /// this runs for every line of every answer.
    private func header(line: UnsafeBufferPointer<UInt8>) {
        if line.starts(with: Self.statusLinePrefix) {
            // A new status line (after `100 Continue` or a redirect): the headers so far were not the final ones.
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = Self.trimmed(line[..<colon])
        let value = Self.trimmed(line[(colon + 1)...])
        guard !name.isEmpty else { return }
        // Both made from contiguous bytes: a lazily mapped or sliced collection takes the standard library's slow path.
        let key = String(unsafeUninitializedCapacity: name.count) { buffer in
            for (offset, byte) in name.enumerated() { buffer[offset] = byte >= 65 && byte <= 90 ? byte + 32 : byte }
            return name.count
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: value), as: UTF8.self)
        if let earlier = headers[key] {
            headers[key] = earlier + ", " + text
        } else {
            headers[key] = text
        }
    }

    private static let statusLinePrefix = Array("HTTP/".utf8)

    /// The bytes without leading and trailing spaces, tabs, CR and LF.
    private static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else {
            return bytes[bytes.startIndex..<bytes.startIndex]
        }
        return bytes[first...last]
    }

    private static func progress(_ context: UnsafeMutableRawPointer?) -> Int32 {
        handle(context)?.cancellation?.isCancelled == true ? 1 : 0
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        seconds <= 0 ? 0 : max(1, Int((seconds * 1000).rounded()))
    }
}
