import Foundation

/// The libcurl implementation of `HTTPTransport`.
///
/// Every transfer verifies TLS (peer and host name, no way to turn it off),
/// offers compressed responses, honours the proxy environment variables
/// (`http_proxy`, `https_proxy`, `all_proxy`, `no_proxy`; libcurl ignores
/// upper-case `HTTP_PROXY` on purpose) and keeps at most
/// `Options.maximumResponseBytes` of an answer.
///
/// Threads: no transfer ever runs on the Swift cooperative pool. Every
/// `send`, `upload` and `download` of one transport goes through its
/// `TransferLoop`: one worker thread driving one libcurl multi handle, which
/// keeps the connections to a server open from one request to the next and
/// runs requests made at once side by side; the caller's continuation is
/// resumed with a `Sendable` result. `uploadAll` runs a thread of its own
/// through another multi handle, and `perform` runs on the caller's thread.
/// A handle never leaves the thread that made it, which is what makes the
/// non-`Sendable` handle classes safe here.
public struct CurlTransport: HTTPTransport {
    /// Limits and trust settings, the same for every request of a transport.
    public struct Options: Sendable, Hashable {
        /// Seconds to establish the connection, TLS included.
        public var connectTimeout: Double
        /// Seconds a whole request may take (not uploads: see `uploadStallTimeout`).
        public var totalTimeout: Double
        /// Uploads have no total cap; one that sends slower than
        /// `uploadMinimumBytesPerSecond` for this many seconds is given up.
        public var uploadStallTimeout: Double
        /// See `uploadStallTimeout`.
        public var uploadMinimumBytesPerSecond: Int
        /// The largest answer kept, in decoded bytes; more is `NetworkingError.tooLarge`.
        public var maximumResponseBytes: Int
        /// A PEM bundle of certificate authorities to trust instead of the system's
        /// (`--cacert`, for a server with a private CA).
        public var caCertificatePath: String?
        /// The `User-Agent` header.
        public var userAgent: String
        /// Addresses a host name is connected to instead of resolving it
        /// again, as libcurl's `host:port:address[,address]` entries: a caller
        /// that checked where a name points connects exactly there.
        public var pinnedAddresses: [String] = []
        /// Whether the proxy environment variables apply; false connects directly.
        public var usesProxyEnvironment = true

        /// Options with the defaults: 10 s to connect, 60 s per request, uploads
        /// given up below 1 KB/s for 60 s, answers up to 8 MB, the system's CAs.
        public init(
            connectTimeout: Double = 10, totalTimeout: Double = 60, uploadStallTimeout: Double = 60,
            uploadMinimumBytesPerSecond: Int = 1024, maximumResponseBytes: Int = 8 * 1024 * 1024,
            caCertificatePath: String? = nil, userAgent: String = "JanitorialQC"
        ) {
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.uploadStallTimeout = uploadStallTimeout
            self.uploadMinimumBytesPerSecond = uploadMinimumBytesPerSecond
            self.maximumResponseBytes = maximumResponseBytes
            self.caCertificatePath = caCertificatePath
            self.userAgent = userAgent
        }
    }

    /// The options every request of this transport uses.
    public let options: Options
    /// The thread and connections every `send`, `upload` and `download` of this transport goes through.
    let loop = TransferLoop()

    /// A transport with `options`.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Performs one request through the transport's loop; cancelling the task stops the transfer.
    public func send(_ request: HTTPRequest) async throws(NetworkingError) -> HTTPResponse {
        let options = self.options
        return try await loop.perform(url: request.url) { cancellation throws(NetworkingError) in
            let easy = try EasyHandle(url: request.url, options: options, cancellation: cancellation)
            try easy.prepare(request)
            return LoopTransfer(easy)
        }.get()
    }

    /// Posts one `multipart/form-data` upload, streaming its file from disk.
    public func upload(_ upload: MultipartUpload) async throws(NetworkingError) -> HTTPResponse {
        let options = self.options
        return try await loop.perform(url: upload.url) { cancellation throws(NetworkingError) in
            let easy = try EasyHandle(url: upload.url, options: options, cancellation: cancellation)
            try easy.prepare(upload, options: options)
            return LoopTransfer(easy)
        }.get()
    }

    /// Posts every upload through one libcurl multi handle, at most
    /// `maxConcurrent` at a time, on one worker thread; results in input order.
    /// The multi handle keeps its connections open from one upload to the
    /// next, and a finished upload's slot is given to the next at once.
    /// `finished` is called on the worker thread as each upload ends.
    public func uploadAll(
        _ uploads: [MultipartUpload], maxConcurrent: Int,
        finished: @escaping @Sendable (_ index: Int, _ result: Result<HTTPResponse, NetworkingError>) -> Void
    )
        async -> [Result<HTTPResponse, NetworkingError>]
    {
        guard !uploads.isEmpty else { return [] }
        let options = self.options
        let cancellation = TransferCancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<[Result<HTTPResponse, NetworkingError>], Never>) in
                Thread.detachNewThread {
                    continuation.resume(
                        returning: Self.runConcurrently(
                            uploads, limit: max(1, maxConcurrent), options: options,
                            cancellation: cancellation, finished: finished))
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Performs one request on the calling thread, which blocks until it
    /// ends: for callers that run their own threads (the server's webhook
    /// senders). Redirects are never followed.
    public func perform(_ request: HTTPRequest) -> Result<HTTPResponse, NetworkingError> {
        do throws(NetworkingError) {
            let easy = try EasyHandle(url: request.url, options: options, cancellation: nil)
            try easy.prepare(request)
            return easy.perform()
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Threads

    /// The multi loop of `uploadAll`; runs on its own worker thread, which owns every handle it makes.
    private static func runConcurrently(
        _ uploads: [MultipartUpload], limit: Int, options: Options, cancellation: TransferCancellation,
        finished: @Sendable (Int, Result<HTTPResponse, NetworkingError>) -> Void
    ) -> [Result<HTTPResponse, NetworkingError>] {
        var results = [Result<HTTPResponse, NetworkingError>?](repeating: nil, count: uploads.count)
        func end(_ index: Int, _ result: Result<HTTPResponse, NetworkingError>) {
            results[index] = result
            finished(index, result)
        }
        guard let multi = MultiHandle() else {
            for (index, upload) in uploads.enumerated() {
                let target = RequestTarget(upload.url)
                end(
                    index,
                    .failure(
                        NetworkingError(
                            .transport, "Could not start uploads to \(target.host): libcurl failed to initialise.",
                            url: target.redactedURL)))
            }
            return results.compactMap { $0 }
        }
        var next = 0
        while next < uploads.count || multi.count > 0 {
            while multi.count < limit && next < uploads.count {
                let index = next
                next += 1
                let upload = uploads[index]
                if cancellation.isCancelled {
                    let target = RequestTarget(upload.url)
                    end(
                        index,
                        .failure(
                            NetworkingError(
                                .cancelled, "The upload to \(target.host) was cancelled.", url: target.redactedURL)))
                    continue
                }
                do throws(NetworkingError) {
                    let easy = try EasyHandle(url: upload.url, options: options, cancellation: cancellation)
                    try easy.prepare(upload, options: options)
                    if !multi.add(easy, index: index) {
                        let target = RequestTarget(upload.url)
                        end(
                            index,
                            .failure(
                                NetworkingError(
                                    .transport, "Could not start the upload to \(target.host).",
                                    url: target.redactedURL)))
                    }
                } catch {
                    end(index, .failure(error))
                }
            }
            guard multi.count > 0 else { continue }
            let done = multi.step()
            for (index, result) in done { end(index, result) }
            // A freed slot with uploads waiting starts the next one at once; otherwise sleep until there is work.
            if multi.count > 0 && (done.isEmpty || next >= uploads.count) { multi.wait(milliseconds: 500) }
        }
        return results.enumerated().map { index, result in
            result
                ?? .failure(
                    NetworkingError(
                        .transport, "The upload to \(RequestTarget(uploads[index].url).host) never finished."))
        }
    }
}
