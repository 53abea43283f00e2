import Foundation

extension CurlTransport {
    /// Performs `request` through the transport's loop with its body read
    /// from `body` while it is sent (libcurl's read callback over one
    /// descriptor): a 50 MB photo costs no more memory than a small one.
    public func send(_ request: HTTPRequest, body: FileRange) async throws(NetworkingError) -> HTTPResponse {
        let options = self.options
        return try await loop.perform(url: request.url) { cancellation throws(NetworkingError) in
            let easy = try EasyHandle(url: request.url, options: options, cancellation: cancellation)
            let source = try FileSource(body, to: request.url)
            try easy.prepare(request.method, headers: request.headers, streaming: source, options: options)
            return LoopTransfer(easy) { result in
                guard !source.failed else {
                    let target = RequestTarget(request.url)
                    return .failure(
                        NetworkingError(
                            .fileUnreadable, "The file being sent to \(target.host) could not be read: '\(body.path)'.",
                            url: target.redactedURL))
                }
                return result
            }
        }.get()
    }
}
