#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file so that a reader sees the old file or the whole new one:
/// a temporary file beside it is written, flushed to disk and closed — each
/// step checked — then renamed over the target. When any step fails the
/// temporary file is removed, the previous file is untouched, and the error
/// names the step and its cause.
public enum AtomicFile {
    /// Replaces `path` with `bytes`; the new file has `mode`.
    public static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o644) throws(OutputError) {
        try replace(path, mode: mode) { (descriptor: Int32) throws(OutputError) in
            try DescriptorWriter.writeAll(descriptor, bytes, target: "'\(path)'")
        }
    }

    /// Replaces `path` with what `produce` writes to the descriptor it is given.
    public static func replace(
        _ path: String, mode: mode_t = 0o644,
        _ produce: (Int32) throws(OutputError) -> Void
    ) throws(OutputError) {
        try replace(path, mode: mode, failure: { $0 }, produce)
    }

    /// Replaces `path` with what `produce` streams to the descriptor it is
    /// given, in the caller's error type: `produce` throws its own errors, and
    /// `failure` turns a failed step of the replacement into one. The step is
    /// the error's `action`: "create", "protect", "flush", "close" or "save".
    ///
    /// The new file has `mode`, narrowed by the umask unless `exactMode`, when
    /// it is set exactly (a private file that must be 0600 whatever the umask).
    public static func replace<Failure: Error>(
        _ path: String, mode: mode_t = 0o644, exactMode: Bool = false,
        failure: (OutputError) -> Failure,
        _ produce: (Int32) throws(Failure) -> Void
    ) throws(Failure) {
        let file = try Replacement(path, mode: mode, exactMode: exactMode, failure: failure)
        defer { withExtendedLifetime(file) {} }
        try produce(file.descriptor)
        try file.commit(failure: failure)
    }

    /// One replacement of a file, step by step, for a producer `replace`
    /// cannot call, such as one that awaits the bytes it writes (a download):
    /// the temporary file is open for writing at `descriptor`, and `commit`
    /// flushes, closes and renames it over the target. A replacement never
    /// committed closes and removes its temporary file when it goes away, so
    /// the previous file is untouched.
    public final class Replacement {
        /// Where the new file's bytes are written.
        public let descriptor: Int32
        private let path: String
        private let temporary: String
        private var isOpen = true
        private var renamed = false

        /// Creates the temporary file beside `path` with `mode` (exactly, whatever the umask, when `exactMode`).
        public init<Failure: Error>(
            _ path: String, mode: mode_t = 0o644, exactMode: Bool = false, failure: (OutputError) -> Failure
        ) throws(Failure) {
            let target = "'\(path)'"
            let folder = parentFolder(of: path)
            // A short name of its own, so a target name near the length limit still has room.
            let temporary =
                folder + "/" + temporaryPrefix + String(UInt32.random(in: .min ... .max), radix: 16) + temporarySuffix
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            guard descriptor >= 0 else { throw failure(OutputError(errno: errno, target: target, action: "create")) }
            if exactMode, fchmod(descriptor, mode) != 0 {
                let error = OutputError(errno: errno, target: target, action: "protect")
                close(descriptor)
                unlink(temporary)
                throw failure(error)
            }
            self.descriptor = descriptor
            self.path = path
            self.temporary = temporary
        }

        /// Puts the written file in place of the target: flush, close, rename, each checked.
        public func commit<Failure: Error>(failure: (OutputError) -> Failure) throws(Failure) {
            let target = "'\(path)'"
            guard fsync(descriptor) == 0 else {
                throw failure(OutputError(errno: errno, target: target, action: "flush"))
            }
            isOpen = false
            guard close(descriptor) == 0 else {
                throw failure(OutputError(errno: errno, target: target, action: "close"))
            }
            guard rename(temporary, path) == 0 else {
                throw failure(OutputError(errno: errno, target: target, action: "save"))
            }
            renamed = true
            // The new file is already in place and complete, so a folder that
            // cannot be flushed changes nothing a reader sees.
            try? flush(parentFolder(of: path))
        }

        deinit {
            if isOpen { close(descriptor) }
            if !renamed { unlink(temporary) }
        }
    }

    /// Flushes a file or a folder that is already written to disk (fsync(2)
    /// on a descriptor opened read-only for it), each step checked; the
    /// error's `action` is "open", "flush" or "close". Flushing a folder makes
    /// a name just linked or renamed in it durable.
    public static func flush(_ path: String) throws(OutputError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw OutputError(errno: errno, target: "'\(path)'", action: "open") }
        let flushed = fsync(descriptor) == 0
        let code = errno
        let closed = close(descriptor) == 0
        guard flushed else { throw OutputError(errno: code, target: "'\(path)'", action: "flush") }
        guard closed else { throw OutputError(errno: errno, target: "'\(path)'", action: "close") }
    }

    /// True for the name of a temporary file a replacement leaves behind only
    /// when its process is killed, for the folders that sweep them up.
    public static func isTemporaryName(_ name: String) -> Bool {
        name.hasPrefix(temporaryPrefix) && name.hasSuffix(temporarySuffix)
    }

    private static let temporaryPrefix = ".jqc-"
    private static let temporarySuffix = ".part"

    /// The folder holding `path` ("." for a bare name).
    static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
