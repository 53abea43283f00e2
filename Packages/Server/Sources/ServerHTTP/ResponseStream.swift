import Foundation

/// What a streamed response body is made from: the next bytes, one chunk at
/// a time, pulled while the client reads (a database cursor behind it, say).
///
/// The HTTP layer calls `nextChunk` on a thread of the stream's own, never
/// on two threads at once, and `finish` once on that same thread, however
/// the stream ends: complete, failed, or the client gone. A source can
/// therefore own a non-Sendable handle (a connection, a transaction).
public protocol StreamSource: AnyObject {
    /// The next bytes of the body (never empty), or nil once the body is
    /// complete. Throwing cuts the stream short: the client sees the
    /// connection close without the terminating chunk, never a short body
    /// that looks complete.
    func nextChunk() throws -> Data?
    /// Releases everything the source holds. Called exactly once.
    func finish()
}

/// A response body of unknown length, sent with chunked transfer encoding
/// as `source` produces it. At most `bufferedBytes` wait between the source
/// and the socket, so memory stays bounded whatever the size, and a client
/// that stops reading stops the source.
public final class ResponseStream: @unchecked Sendable {
    // The source is handed to the stream's thread when the response is
    // sent, or finished at once if it never is; `taken` says which, under `lock`.
    private let lock = NSLock()
    private var source: (any StreamSource)?
    /// Bytes produced ahead of the socket at most.
    public let bufferedBytes: Int

    /// Streams `source`, keeping at most `bufferedBytes` produced ahead of the client.
    public init(_ source: any StreamSource, bufferedBytes: Int = 256 * 1024) {
        self.source = source
        self.bufferedBytes = max(4096, bufferedBytes)
    }

    /// The source, once: to the sender, or nil when it was already taken or abandoned.
    func take() -> (any StreamSource)? {
        lock.lock()
        defer { lock.unlock() }
        let taken = source
        source = nil
        return taken
    }

    /// Releases the source without sending anything (the client left before the answer).
    public func abandon() {
        take()?.finish()
    }
}
