import Foundation

extension CurlTransport {
    /// Performs `request` on a thread of its own with its body read from
    /// `body` while it is sent (libcurl's read callback over one descriptor):
    /// a 50 MB photo costs no more memory than a small one.
    public func send(_ request: HTTPRequest, body: FileRange) async throws(NetworkingError) -> HTTPResponse {
        let options = self.options
        return try await Self.onOwnThread(url: request.url) { cancellation in
            do throws(NetworkingError) {
                let target = RequestTarget(request.url)
                let easy = try EasyHandle(url: request.url, options: options, cancellation: cancellation)
                let source = try FileSource(body, host: target)
                try easy.prepare(request.method, headers: request.headers, streaming: source, options: options)
                let result = withExtendedLifetime(source) { easy.perform() }
                if source.failed {
                    return .failure(
                        NetworkingError(
                            .fileUnreadable, "The file being sent to \(target.host) could not be read: '\(body.path)'.",
                            url: target.redactedURL))
                }
                return result
            } catch {
                return .failure(error)
            }
        }.get()
    }
}
