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
    public static func replace(_ path: String, mode: mode_t = 0o644,
                               _ produce: (Int32) throws(OutputError) -> Void) throws(OutputError) {
        let target = "'\(path)'"
        let folder = parentFolder(of: path)
        // A short name of its own, so a target name near the length limit still has room.
        let temporary = folder + "/.jqc-" + String(UInt32.random(in: .min ... .max), radix: 16) + ".part"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw OutputError(errno: errno, target: target, action: "create a file beside") }
        var isOpen = true
        var renamed = false
        defer {
            if isOpen { close(descriptor) }
            if !renamed { unlink(temporary) }
        }
        try produce(descriptor)
        guard fsync(descriptor) == 0 else { throw OutputError(errno: errno, target: target, action: "flush") }
        isOpen = false
        guard close(descriptor) == 0 else { throw OutputError(errno: errno, target: target, action: "close") }
        guard rename(temporary, path) == 0 else { throw OutputError(errno: errno, target: target, action: "save") }
        renamed = true
        syncFolder(folder)
    }

    /// The folder holding `path` ("." for a bare name).
    static func parentFolder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Makes the rename itself durable. The new file is already in place and
    /// complete, so a folder that cannot be flushed changes nothing a reader sees.
    private static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}
