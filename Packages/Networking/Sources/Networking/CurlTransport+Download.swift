internal import CCurl
import Foundation

extension CurlTransport {
    /// Performs a GET through the transport's loop with its 2xx body streamed to
    /// `sink` as libcurl receives it: at most one receive buffer of the body
    /// is in memory. The answer has no total time cap (a large photo on a
    /// slow link); one slower than `uploadMinimumBytesPerSecond` for
    /// `uploadStallTimeout` seconds is given up, as uploads are.
    public func download(_ request: HTTPRequest, maximumBytes: Int64, into sink: @escaping DownloadSink)
        async throws(NetworkingError) -> HTTPResponse
    {
        let options = self.options
        return try await loop.perform(url: request.url) { cancellation throws(NetworkingError) in
            let easy = try EasyHandle(url: request.url, options: options, cancellation: cancellation)
            try easy.prepare(request)
            let target = DownloadTarget(
                handle: easy.raw, sink: sink, maximumBytes: maximumBytes, errorLimit: options.maximumResponseBytes)
            let host = RequestTarget(request.url)
            try target.attach(options: options, host: host)
            return LoopTransfer(easy) { result in
                if target.exceeded {
                    return .failure(
                        NetworkingError(
                            .tooLarge,
                            "The answer from \(host.host) was larger than \(maximumBytes) bytes; it was not kept.",
                            url: host.redactedURL))
                }
                if target.sinkFailed {
                    return .failure(
                        NetworkingError(
                            .transport, "The download from \(host.host) could not be kept.", url: host.redactedURL))
                }
                return result.map { HTTPResponse(status: $0.status, headers: $0.headers, body: target.otherBody) }
            }
        }.get()
    }
}

/// The receiving end of one download: the body of a 2xx answer goes to the
/// sink; the body of any other answer (an error envelope) is kept, within the
/// transport's limit. Touched only on the transfer's thread, like its handle.
private final class DownloadTarget {
    private let handle: UnsafeMutableRawPointer
    private let sink: DownloadSink
    private let maximumBytes: Int64
    private let errorLimit: Int
    private var status: Int?
    private var received: Int64 = 0
    /// The body of an answer that is not 2xx.
    private(set) var otherBody = Data()
    private(set) var exceeded = false
    private(set) var sinkFailed = false

    init(handle: UnsafeMutableRawPointer, sink: @escaping DownloadSink, maximumBytes: Int64, errorLimit: Int) {
        self.handle = handle
        self.sink = sink
        self.maximumBytes = maximumBytes
        self.errorLimit = errorLimit
    }

    /// Points the handle's body at this target, with the download's size and speed limits.
    func attach(options: CurlTransport.Options, host: RequestTarget) throws(NetworkingError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var ok =
            jqc_easy_setopt_write_function(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                DownloadTarget.receive(data, size * count, context)
            } == CURLE_OK
        ok = ok && jqc_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, me) == CURLE_OK
        ok = ok && jqc_easy_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maximumBytes)) == CURLE_OK
        ok = ok && jqc_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, 0) == CURLE_OK
        ok =
            ok
            && jqc_easy_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, max(1, options.uploadMinimumBytesPerSecond))
                == CURLE_OK
        ok =
            ok
            && jqc_easy_setopt_long(
                handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(options.uploadStallTimeout.rounded(.up)))) == CURLE_OK
        guard ok else {
            throw NetworkingError(
                .transport, "Could not set up the download from \(host.host): libcurl refused an option.",
                url: host.redactedURL)
        }
    }

    private static func receive(
        _ data: UnsafeMutablePointer<CChar>?, _ length: Int, _ context: UnsafeMutableRawPointer?
    ) -> Int {
        guard let context else { return 0 }
        let target = Unmanaged<DownloadTarget>.fromOpaque(context).takeUnretainedValue()
        guard length > 0, let data else { return length }
        return target.take(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
    }

    /// One piece of the body; false stops the transfer.
    private func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if status == nil {
            var code = 0
            status = jqc_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK ? code : 0
        }
        guard let status, (200...299).contains(status) else {
            guard otherBody.count + bytes.count <= errorLimit else {
                exceeded = true
                return false
            }
            otherBody.append(contentsOf: bytes)
            return true
        }
        guard received + Int64(bytes.count) <= maximumBytes else {
            exceeded = true
            return false
        }
        received += Int64(bytes.count)
        guard sink(bytes) else {
            sinkFailed = true
            return false
        }
        return true
    }
}
