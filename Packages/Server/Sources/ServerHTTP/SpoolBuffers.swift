import Foundation
import Synchronization

/// Page-aligned buffers in which a streamed body's bytes gather before they
/// are written to its file. libmicrohttpd hands a body over in pieces of
/// about 16 KB at odd addresses; written as they come, each piece straddles
/// pages of the file and the kernel copies it slowly. Gathered, the file
/// takes whole 64 KiB writes at page-aligned offsets, a quarter as many, and
/// the kernel's share of storing a photo drops markedly (BENCHMARKS.md).
///
/// At most `capacity` buffers exist at once, whatever the number of
/// connections, so the memory they take has a fixed bound; a body that
/// finds none free is written piece by piece as before. Buffers given back
/// are kept for the next body, never freed while the server runs.
final class SpoolBuffers: Sendable {
    /// The bytes one buffer holds.
    static let size = 64 * 1024

    /// One buffer, owned by one request at a time.
    struct Buffer: @unchecked Sendable {
        let bytes: UnsafeMutableRawBufferPointer
    }

    private struct Pool: ~Copyable {
        var spare: [Buffer] = []
        var made = 0
    }

    /// Buffers that may exist at once.
    let capacity: Int
    private let pool = Mutex(Pool())

    init(capacity: Int) {
        self.capacity = capacity
    }

    deinit {
        pool.withLock { pool in
            for buffer in pool.spare { free(buffer.bytes.baseAddress) }
        }
    }

    /// A buffer, or nil when `capacity` are in use (or memory is short).
    func take() -> Buffer? {
        pool.withLock { pool -> Buffer? in
            if let buffer = pool.spare.popLast() { return buffer }
            guard pool.made < capacity, let raw = aligned_alloc(Int(getpagesize()), Self.size) else { return nil }
            pool.made += 1
            return Buffer(bytes: UnsafeMutableRawBufferPointer(start: raw, count: Self.size))
        }
    }

    /// Gives `buffer` back for the next body.
    func give(_ buffer: Buffer) {
        pool.withLock { $0.spare.append(buffer) }
    }
}
