import Foundation

/// Writes the stored photo: created (or truncated) with mode 0600, written
/// fully, flushed to disk and closed; removed again if any step fails. The
/// caller renames it into place.
enum DestinationFile {
    /// Writes `chunks` one after another to `url` and returns the bytes written.
    static func write(_ chunks: [UnsafeRawBufferPointer], to url: URL) throws(ImagingError) -> Int64 {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ImagingError.writeFailed(url, errno: errno) }
        var written: Int64 = 0
        var failure: Int32 = 0
        outer: for chunk in chunks {
            guard let base = chunk.baseAddress else { continue }
            var offset = 0
            while offset < chunk.count {
                let n = Foundation.write(fd, base + offset, chunk.count - offset)
                if n >= 0 {
                    offset += n
                    written += Int64(n)
                } else if errno != EINTR {
                    failure = errno
                    break outer
                }
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        if close(fd) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else {
            unlink(url.path)
            throw ImagingError.writeFailed(url, errno: failure)
        }
        return written
    }

    /// Refuses a destination that is the source itself, which would destroy the source.
    static func refuseOverwriting(_ source: SourceFile, with url: URL) throws(ImagingError) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return }
        if UInt64(info.st_dev) == source.device && UInt64(info.st_ino) == source.inode {
            throw ImagingError.writeFailed(
                url, reason: "it is the source photo itself, which is never overwritten", advice: "Choose a different destination."
            )
        }
    }
}
