import Foundation

/// The source photo, opened once read-only; every later read goes through
/// this descriptor, so the file checked is the file decoded.
final class SourceFile {
    let url: URL
    let descriptor: Int32
    /// Size in bytes when opened.
    let size: Int64
    let device: UInt64
    let inode: UInt64

    init(_ url: URL) throws(ImagingError) {
        self.url = url
        // Non-blocking so that a FIFO given as a photo is refused rather than waited on.
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ImagingError.unreadable(url, errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw ImagingError.unreadable(url, errno: code)
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            throw ImagingError.unreadable(
                url, reason: kind == S_IFDIR ? "it is a folder, not a file" : "it is not a regular file")
        }
        descriptor = fd
        size = Int64(info.st_size)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes from `offset`; fewer only at the end of the file.
    func read(upTo count: Int, at offset: Int64) throws(ImagingError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        var failure: Int32 = 0
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while filled < count {
                let n = pread(descriptor, base + filled, count - filled, off_t(offset) + off_t(filled))
                if n > 0 {
                    filled += n
                } else if n == 0 {
                    break
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        if failure != 0 { throw ImagingError.unreadable(url, errno: failure) }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// The whole file, refused as too large beyond `limit` bytes.
    func readAll(limit: Int64) throws(ImagingError) -> [UInt8] {
        guard size <= limit else {
            throw ImagingError.tooLarge(url, what: "\(size / 1_048_576) MiB; the limit is \(limit / 1_048_576) MiB")
        }
        return try read(upTo: Int(size), at: 0)
    }
}
