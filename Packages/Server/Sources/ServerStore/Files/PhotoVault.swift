import Foundation
import ProgramOutput

/// Photo bytes on disk, named by their SHA-256 and nothing else: the folder
/// beside the database holds `<first two hex digits>/<sha256>`. No part of a
/// path ever comes from the client except a hash already checked to be 64
/// hex digits, so nothing can be written or read outside the folder.
public struct PhotoVault: PhotoStore {
    public let directory: String

    /// The folder a SQLite database's photos live in: beside the file.
    public static func directory(besideDatabase path: String) -> String { path + ".photos" }

    /// Creates the folder and its upload area.
    public init(directory: String) throws(ServerError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw ServerError.internal("cannot create the photo folder '\(directory)'")
        }
        try PrivateFolder.prepare(uploadDirectory, option: "--db (the photo folder beside the database)")
    }

    /// Where uploads stream to before they are checked.
    public var uploadDirectory: String { directory + "/incoming" }

    /// The path of the photo with this hash; nil for anything that is not a hash.
    public func path(sha256: String) -> String? {
        guard Hex.isSHA256(sha256) else { return nil }
        let hash = sha256.lowercased()
        return "\(directory)/\(hash.prefix(2))/\(hash)"
    }

    /// Links a checked upload into place, durably: the file the upload was
    /// written through (its descriptor, never its name, which someone could
    /// have replaced) is flushed to disk, linked under its hash, and the
    /// folder flushed after, each step checked. A photo already stored under
    /// the same hash is kept (same hash, same bytes). On any failure nothing
    /// is stored under the hash and the error names the cause; the client
    /// sends the photo again.
    ///
    /// The hash's folder is made when the link finds it missing, not before
    /// every photo: all but the first photos of a folder find it there, and
    /// making a folder that exists waits on the lock of the folder above it,
    /// which every upload would then share.
    public func keep(descriptor: Int32, sha256: String, byteSize: Int64) throws(ServerError) {
        guard let target = try place(sha256: sha256, of: descriptor, byteSize: byteSize) else { return }
        let folder = (target as NSString).deletingLastPathComponent
        guard fsync(descriptor) == 0 else { throw Self.failure("flush", errno) }
        var linked = try Self.link(descriptor, to: target)
        // The link found no folder, or no file: a folder made now is flushed into the one above it.
        if !linked, try makeFolder(folder) {
            try Self.flush(directory)
            linked = try Self.link(descriptor, to: target)
        }
        guard linked else {
            // The upload's name was removed while it was written (a file no longer in a folder cannot be
            // linked): the bytes written through the descriptor are copied into place instead.
            try Self.copy(descriptor, to: target)
            return
        }
        try Self.flush(folder)
        Self.release(descriptor)
    }

    /// Stores a copy of the bytes readable through `descriptor`, flushed,
    /// never a link to its file. A resumable upload's file is stored this
    /// way: linked, it would be the stored photo's file too, and should the
    /// photo's record then fail to be written, the upload could neither be
    /// finished nor sent to again (its file must have one name) until it
    /// expired.
    public func keep(copying descriptor: Int32, sha256: String, byteSize: Int64) throws(ServerError) {
        guard let target = try place(sha256: sha256, of: descriptor, byteSize: byteSize) else { return }
        // A folder made now is flushed into the one above it; the copy flushes itself and its folder.
        if try makeFolder((target as NSString).deletingLastPathComponent) { try Self.flush(directory) }
        try Self.copy(descriptor, to: target)
        Self.release(descriptor)
    }

    /// Where the upload read through `descriptor` goes, or nil when a photo
    /// of its hash is stored already; refused when the hash is not one, or
    /// when the file is no longer the regular file of `byteSize` bytes that was checked.
    private func place(sha256: String, of descriptor: Int32, byteSize: Int64) throws(ServerError) -> String? {
        guard let target = path(sha256: sha256) else { throw ServerError.badRequest("'sha256' is not a SHA-256") }
        if FileManager.default.fileExists(atPath: target) { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size == byteSize, (status.st_mode & S_IFMT) == S_IFREG else {
            throw ServerError.internal("the upload changed while it was stored; send it again")
        }
        return target
    }

    /// Links the open file itself under `target`, by its descriptor (linkat
    /// through /proc follows to that inode, not to a name); true when it is
    /// there now (or a photo of the same hash was), false when a name on the
    /// way is missing.
    private static func link(_ descriptor: Int32, to target: String) throws(ServerError) -> Bool {
        if linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, target, AT_SYMLINK_FOLLOW) == 0 || errno == EEXIST
        {
            return true
        }
        guard errno == ENOENT else { throw failure("store", errno) }
        return false
    }

    /// Makes a hash's folder; false when it was there already (the link's
    /// missing name was then the upload's own). The photo folder itself is
    /// made again too if it was removed while the server ran.
    private func makeFolder(_ folder: String) throws(ServerError) -> Bool {
        if mkdir(folder, 0o700) == 0 { return true }
        if errno == EEXIST { return false }
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return true
        } catch {
            throw ServerError.disk(
                "cannot store the photo: cannot create its folder", errno: Self.systemErrno(of: error))
        }
    }

    /// Lets the kernel drop the cached pages of a photo now on disk: a
    /// stored photo is seldom read again soon, and the next upload's bytes
    /// reuse its pages instead of taking fresh ones and pushing out what the
    /// database reads. Advice only; a kernel that ignores it loses nothing.
    public static func release(_ descriptor: Int32) {
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
    }

    /// Writes the bytes readable through `descriptor` to `target`, atomically, flushed.
    private static func copy(_ descriptor: Int32, to target: String) throws(ServerError) {
        do throws(OutputError) {
            try AtomicFile.replace(target, mode: 0o600, exactMode: true, failure: { $0 }) {
                (output: Int32) throws(OutputError) in
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                var offset: off_t = 0
                while true {
                    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
                    if count < 0 && errno == EINTR { continue }
                    guard count >= 0 else { throw OutputError(errno: errno, target: "the upload", action: "read") }
                    if count == 0 { break }
                    try DescriptorWriter.writeAll(output, Array(buffer[0..<count]), target: "'\(target)'")
                    offset += off_t(count)
                }
            }
        } catch {
            throw failure(error.action, error.errno)
        }
    }

    public func open(sha256: String, byteSize: Int64) throws(ServerError) -> Int32? {
        guard let path = path(sha256: sha256) else { return nil }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        return descriptor >= 0 ? descriptor : nil
    }

    /// fsync(2) of a file or a folder, through `AtomicFile`.
    private static func flush(_ path: String) throws(ServerError) {
        do throws(OutputError) {
            try AtomicFile.flush(path)
        } catch {
            throw failure(error.action, error.errno)
        }
    }

    /// 507 when the disk is full, 500 otherwise; nothing is stored under the hash either way.
    private static func failure(_ action: String, _ code: Int32) -> ServerError {
        .disk("cannot \(action) the photo on the server's disk; send it again later", errno: code)
    }

    /// The `errno` behind a Foundation file error (0 when it names none).
    private static func systemErrno(of error: any Error) -> Int32 {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let underlying, underlying.domain == NSPOSIXErrorDomain { return Int32(underlying.code) }
        if (error as NSError).domain == NSPOSIXErrorDomain { return Int32((error as NSError).code) }
        return 0
    }
}
