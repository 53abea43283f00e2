import Foundation
import ServerHTTP

/// The byte moving both upload stores share: ranges of a descriptor read
/// a piece at a time (never a whole photo in memory), and a whole file hashed.
public enum UploadBytes {
    /// The size of one piece read or written.
    public static let pieceSize = 1 << 20

    /// Calls `take` with the bytes of `descriptor` from `start` for `count`
    /// bytes, a piece at a time, with each piece's offset from `start`.
    public static func read(
        _ descriptor: Int32, from start: Int64 = 0, count: Int64,
        _ take: (Int64, UnsafeRawBufferPointer) throws(ServerError) -> Void
    ) throws(ServerError) {
        var buffer = [UInt8](repeating: 0, count: pieceSize)
        var done: Int64 = 0
        while done < count {
            let wanted = Int(min(Int64(pieceSize), count - done))
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(start + done)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                throw ServerError.internal(
                    "cannot read the upload back (\(got == 0 ? "it is shorter than expected" : String(cString: strerror(errno))))"
                )
            }
            let failure = buffer.withUnsafeBytes { raw -> ServerError? in
                do throws(ServerError) {
                    try take(done, UnsafeRawBufferPointer(rebasing: raw[0..<got]))
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
            done += Int64(got)
        }
    }

    /// Writes `bytes` to `descriptor` at `offset`, whole.
    public static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int64)
        throws(ServerError)
    {
        var written = 0
        while written < bytes.count {
            let count = pwrite(
                descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(offset + Int64(written)))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw ServerError.disk(
                    "cannot keep the upload's bytes on the server's disk; send them again later", errno: errno)
            }
            written += count
        }
    }

    /// The lowercase hex SHA-256 of the first `count` bytes of `descriptor`.
    public static func sha256(_ descriptor: Int32, count: Int64) throws(ServerError) -> String {
        guard let hasher = BodyHasher() else { throw ServerError.internal("cannot hash the upload") }
        try read(descriptor, count: count) { _, bytes throws(ServerError) in hasher.update(bytes) }
        guard let digest = hasher.finish() else { throw ServerError.internal("cannot hash the upload") }
        return digest
    }
}
