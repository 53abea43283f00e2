#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Named apart from the methods that would shadow them.
private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, bytes, count) }

/// Writes every byte to a file descriptor or reports why it could not.
///
/// `EINTR` and `EAGAIN` are transient: the write is tried again, after
/// waiting for the descriptor to take bytes when it said it would block, but
/// only `transientLimit` times in a row, so a descriptor that keeps refusing
/// can never hold a program (and the profile lock it may hold) forever.
public enum DescriptorWriter {
    /// How many transient failures in a row are retried before giving up.
    public static let transientLimit = 100
    /// How long one wait for a blocked descriptor lasts, in milliseconds.
    static let blockedWaitMilliseconds: Int32 = 50

    /// Writes all of `bytes` to `descriptor`; `target` names it in the error.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, target: String)
        throws(OutputError)
    {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var offset = 0
        var transient = 0
        while offset < bytes.count {
            let written = posixWrite(descriptor, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                transient = 0
                continue
            }
            let code = written == 0 ? EIO : errno
            guard code == EINTR || code == EAGAIN || code == EWOULDBLOCK, transient < transientLimit else {
                throw OutputError(errno: code, target: target)
            }
            transient += 1
            if code != EINTR { waitUntilWritable(descriptor) }
        }
    }

    /// Writes all of `text` as UTF-8.
    public static func writeAll(_ descriptor: Int32, _ text: String, target: String) throws(OutputError) {
        var text = text
        try rethrowing(text.withUTF8 { attempt(descriptor, UnsafeRawBufferPointer($0), target: target) })
    }

    /// Writes all of `bytes`.
    public static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], target: String) throws(OutputError) {
        try rethrowing(bytes.withUnsafeBytes { attempt(descriptor, $0, target: target) })
    }

    // The standard library's `withUTF8`/`withUnsafeBytes` rethrow untyped
    // errors, so the typed error travels out of their closures as a value.
    private static func attempt(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, target: String) -> OutputError? {
        do throws(OutputError) {
            try writeAll(descriptor, bytes, target: target)
            return nil
        } catch {
            return error
        }
    }

    private static func rethrowing(_ failure: OutputError?) throws(OutputError) {
        if let failure { throw failure }
    }

    private static func waitUntilWritable(_ descriptor: Int32) {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        _ = poll(&entry, 1, blockedWaitMilliseconds)
    }
}
