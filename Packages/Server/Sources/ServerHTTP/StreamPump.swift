import Foundation
internal import CMicroHTTPD

/// Moves a `StreamSource`'s chunks onto one connection: a thread of its own
/// pulls chunks into a bounded buffer, and libmicrohttpd's reader callback
/// (on the connection's event thread, which must never block) takes from it.
///
/// When the buffer is empty the reader suspends the connection and returns
/// 0; the producer resumes it once a chunk (or the end) is there. When the
/// buffer is full the producer waits, so a client that reads slowly holds
/// at most `limit` bytes. When MHD frees the response (the body was sent,
/// the client went away, the server stopped) the producer stops at its next
/// step and the source is finished on the producer's thread.
///
/// Safety: every field below is read and written with `condition` locked;
/// `MHD_suspend_connection` and `MHD_resume_connection` are both called
/// under it, so a resume never comes before its suspend, and never after
/// `release` (once MHD freed the response, the connection may be gone).
final class StreamPump: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [Data] = []
    /// Bytes of `chunks[0]` already handed to MHD.
    private var offset = 0
    private var queued = 0
    private var ended = false
    private var failed = false
    private var cancelled = false
    private var suspended = false
    /// The server is stopping: the reader ends the stream rather than wait for more.
    private var stopping = false
    private let connection: OpaquePointer
    private weak var registry: StreamRegistry?
    private let source: any StreamSource
    private let limit: Int
    private let progress: @Sendable () -> Void

    init(source: any StreamSource, limit: Int, connection: OpaquePointer, progress: @escaping @Sendable () -> Void) {
        self.source = source
        self.limit = limit
        self.connection = connection
        self.progress = progress
    }

    /// The MHD response reading from this pump, which it now owns; nil (the
    /// source finished) when MHD cannot make one.
    static func response(
        for stream: ResponseStream, connection: OpaquePointer, registry: StreamRegistry,
        progress: @escaping @Sendable () -> Void
    ) -> OpaquePointer? {
        guard let source = stream.take() else { return nil }
        let pump = StreamPump(source: source, limit: stream.bufferedBytes, connection: connection, progress: progress)
        pump.registry = registry
        let owned = Unmanaged.passRetained(pump).toOpaque()
        guard
            let made = MHD_create_response_from_callback(
                jqc_mhd_size_unknown, 32 * 1024, StreamPump.reader, owned,
                StreamPump.released)
        else {
            Unmanaged<StreamPump>.fromOpaque(owned).release()
            source.finish()
            return nil
        }
        registry.add(pump)
        let thread = Thread { pump.produce() }
        thread.name = "jqc-stream"
        thread.start()
        return made
    }

    private func produce() {
        while true {
            condition.lock()
            while queued >= limit && !cancelled { condition.wait() }
            let stop = cancelled
            condition.unlock()
            if stop { break }
            let chunk: Data?
            var broke = false
            do {
                chunk = try source.nextChunk()
            } catch {
                chunk = nil
                broke = true
            }
            condition.lock()
            if broke {
                failed = true
            } else if let chunk {
                if !chunk.isEmpty {
                    chunks.append(chunk)
                    queued += chunk.count
                }
            } else {
                ended = true
            }
            let done = failed || ended
            if suspended && !cancelled {
                suspended = false
                MHD_resume_connection(connection)
            }
            condition.unlock()
            if done { break }
        }
        source.finish()
    }

    /// What the reader callback answers: bytes copied, 0 (suspended until
    /// more), the end of the stream, or a failure (the stream is cut short).
    private func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        progress()
        condition.lock()
        defer { condition.unlock() }
        guard queued > 0 else {
            if failed || stopping { return jqc_mhd_reader_failed }
            if ended { return jqc_mhd_reader_end }
            suspended = true
            MHD_suspend_connection(connection)
            return 0
        }
        var copied = 0
        while copied < capacity, let first = chunks.first {
            let count = min(capacity - copied, first.count - offset)
            first.withUnsafeBytes { raw in
                if let base = raw.baseAddress {
                    UnsafeMutableRawPointer(buffer + copied).copyMemory(from: base + offset, byteCount: count)
                }
            }
            copied += count
            offset += count
            if offset == first.count {
                chunks.removeFirst()
                offset = 0
            }
        }
        queued -= copied
        condition.signal()
        return copied
    }

    /// The server is stopping: a suspended connection is resumed so its
    /// stream ends (cut short) before MHD stops, which it cannot do while
    /// a connection is suspended.
    func stop() {
        condition.lock()
        stopping = true
        if suspended && !cancelled {
            suspended = false
            MHD_resume_connection(connection)
        }
        condition.signal()
        condition.unlock()
    }

    private func release() {
        registry?.remove(self)
        condition.lock()
        cancelled = true
        chunks = []
        queued = 0
        condition.signal()
        condition.unlock()
    }

    private static let reader: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
        guard let cls, let buffer else { return jqc_mhd_reader_failed }
        return Unmanaged<StreamPump>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, capacity: capacity)
    }

    private static let released: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        let pump = Unmanaged<StreamPump>.fromOpaque(cls).takeRetainedValue()
        pump.release()
    }
}

/// The streams being sent, so that stopping the server can end them first.
final class StreamRegistry: @unchecked Sendable {
    // `pumps` is read and written only with `lock` held.
    private let lock = NSLock()
    private var pumps: [ObjectIdentifier: StreamPump] = [:]

    func add(_ pump: StreamPump) {
        lock.lock()
        pumps[ObjectIdentifier(pump)] = pump
        lock.unlock()
    }

    func remove(_ pump: StreamPump) {
        lock.lock()
        pumps[ObjectIdentifier(pump)] = nil
        lock.unlock()
    }

    /// Ends every stream; returns how many there were.
    func stopAll() -> Int {
        lock.lock()
        let all = Array(pumps.values)
        lock.unlock()
        for pump in all { pump.stop() }
        return all.count
    }
}
