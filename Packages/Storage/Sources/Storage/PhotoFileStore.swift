import Foundation
import ProgramOutput
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Named apart from the methods of PhotoFileStore that would shadow them.
private func posixOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { open(path, flags, mode) }

/// A photo file just written into the photo directory.
public struct StoredPhotoFile: Sendable, Hashable {
    /// The file's name inside the photo directory (`<UUID>.jpg`).
    public var fileName: String
    /// Its size in bytes.
    public var byteSize: Int64
    /// Lowercase hex SHA-256 of its bytes.
    public var sha256: String
}

/// An import's shared hold on the photo folder (see `PhotoFileStore.holdForImport()`).
/// Released by `release()`, or when it is freed or its process dies.
public final class PhotoImportHold: @unchecked Sendable {
    private var descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Lets the leftover sweep remove young files again (once no other import holds the folder).
    public func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}

/// What one leftover sweep of the photo folder did.
public struct PhotoLeftoverSweep: Sendable {
    /// Files removed.
    public var removed = 0
    /// Files no record names that could not be removed, one error each; the sweep went on.
    public var unremovable: [StorageError] = []
    /// True when an import held the folder, so only files older than the sweep's age went.
    public var importRunning = false
}

/// The app-private photo directory: mode 0700, files mode 0600, each named
/// `<UUID>.jpg` and nothing else, written atomically.
///
/// Every name is validated before use, so no lookup can leave the directory
/// (`../x`, `/etc/passwd` and the like are refused).
public struct PhotoFileStore: Sendable {
    /// The photo directory.
    public let directory: URL

    /// Uses (and creates, mode 0700) the photo directory.
    public init(directory: URL) throws(StorageError) {
        self.directory = directory.standardizedFileURL
        try Self.makePrivateDirectory(self.directory.path)
    }

    /// True for a name this store can hold: `<UUID>.jpg`.
    public static func isValidName(_ name: String) -> Bool {
        guard name.utf8.count == 40, name.hasSuffix(".jpg") else { return false }
        return UUID(uuidString: String(name.dropLast(4))) != nil
    }

    /// The name of the file for a photo id.
    public static func fileName(for localID: UUID) -> String {
        localID.uuidString + ".jpg"
    }

    /// The location of a stored file; refuses any name that is not `<UUID>.jpg`.
    public func url(for name: String) throws(StorageError) -> URL {
        guard Self.isValidName(name) else {
            throw StorageError(
                .permission,
                "The photo name '\(name)' is not one jqc makes (<UUID>.jpg); photos stay inside the profile's photo folder.",
                context: directory.path)
        }
        return directory.appendingPathComponent(name, isDirectory: false)
    }

    /// True when the file exists.
    public func contains(_ name: String) -> Bool {
        guard let url = try? url(for: name) else { return false }
        return FileManager.default.fileExists(atPath: url.path)
    }

    /// Copies a file into the store as `<localID>.jpg`, streaming in 64 KiB
    /// chunks and hashing on the way; the source is only read.
    public func store(contentsOf source: URL, as localID: UUID = UUID()) throws(StorageError) -> StoredPhotoFile {
        let input = try Self.openForReading(source.path)
        defer { close(input) }
        return try write(named: Self.fileName(for: localID)) {
            (emit: (UnsafeRawBufferPointer) throws(StorageError) -> Void) throws(StorageError) in
            try Self.forEachChunk(of: input, path: source.path, emit)
        }
    }

    /// Writes bytes into the store as `<localID>.jpg` (a compressed image made in memory).
    public func store(_ data: Data, as localID: UUID = UUID()) throws(StorageError) -> StoredPhotoFile {
        try write(named: Self.fileName(for: localID)) {
            (emit: (UnsafeRawBufferPointer) throws(StorageError) -> Void) throws(StorageError) in
            var offset = 0
            while offset < data.count {
                let end = min(offset + SHA256.chunkSize, data.count)
                let chunk = data[offset..<end]
                var failure: StorageError?
                chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Void in
                    do throws(StorageError) { try emit(bytes) } catch { failure = error }
                }
                if let failure { throw failure }
                offset = end
            }
        }
    }

    /// Deletes a stored file; a file already gone is not an error.
    public func remove(_ name: String) throws(StorageError) {
        let url = try url(for: name)
        if unlink(url.path) != 0 && errno != ENOENT {
            throw Self.fileError(errno, path: url.path, doing: "delete")
        }
    }

    /// Bytes free for an unprivileged user on the photo directory's file system.
    public func freeBytes() throws(StorageError) -> Int64 {
        var info = statvfs()
        guard statvfs(directory.path, &info) == 0 else {
            throw Self.fileError(errno, path: directory.path, doing: "measure free space on")
        }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// How old an unrecorded file must be for the leftover sweep to remove it
    /// while an import holds the folder: an hour, far longer than any import
    /// takes between writing a file and recording it.
    public static let leftoverAgeWhileImporting: TimeInterval = 3600

    /// Takes the import hold on the photo folder: a shared `flock` on the
    /// folder itself, kept from before an import writes its first file until
    /// its last photo is recorded (`PhotoImportHold.release()`). Many imports
    /// hold it at once; the leftover sweep only removes young files while no
    /// one does. The kernel drops the hold when the process dies, so a killed
    /// import never keeps it.
    public func holdForImport() throws(StorageError) -> PhotoImportHold {
        let fd = try Self.openFolder(directory.path)
        while flock(fd, LOCK_SH) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            throw Self.fileError(code, path: directory.path, doing: "lock")
        }
        return PhotoImportHold(descriptor: fd)
    }

    /// Deletes what interrupted imports left in the folder: temporary files
    /// (`.import-*.tmp` and `AtomicFile`'s) and `<UUID>.jpg` files that no
    /// record names. `known` gives the names recorded; it is read inside
    /// `body`'s call, under the sweep's lock, so no import commits between the
    /// reading and the removing.
    ///
    /// The rule: when the sweep takes the folder's lock exclusively, no import
    /// is running in any process, so every such file goes whatever its age;
    /// while an import holds it (`holdForImport`), only files last written more
    /// than `age` seconds ago go, never one an import in progress is writing.
    /// Nothing outside the folder is looked at, links and folders are left, and
    /// a file that cannot be removed is named in the result, never thrown.
    public func removeLeftovers(
        olderThan age: TimeInterval, now: Date = Date(),
        keeping known: () throws(StorageError) -> Set<String>
    ) throws(StorageError) -> PhotoLeftoverSweep {
        try removeLeftovers(olderThan: age, now: now, unlinking: { unlink($0) }, keeping: known)
    }

    /// `removeLeftovers`, removing each file with `unlinking` (unlink(2), or a
    /// failing stand-in in tests: root may remove any file).
    func removeLeftovers(
        olderThan age: TimeInterval, now: Date, unlinking: (String) -> Int32,
        keeping known: () throws(StorageError) -> Set<String>
    ) throws(StorageError) -> PhotoLeftoverSweep {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            return PhotoLeftoverSweep()
        }
        let candidates = names.filter { Self.isLeftoverName($0) }
        guard !candidates.isEmpty else { return PhotoLeftoverSweep() }
        let fd = try Self.openFolder(directory.path)
        defer { close(fd) }
        var alone = flock(fd, LOCK_EX | LOCK_NB) == 0
        while !alone && errno == EINTR { alone = flock(fd, LOCK_EX | LOCK_NB) == 0 }
        let recorded = try known()
        var sweep = PhotoLeftoverSweep(importRunning: !alone)
        for name in candidates where !recorded.contains(name) {
            let path = directory.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            guard alone || now.timeIntervalSince1970 - Double(info.st_mtim.tv_sec) > age else { continue }
            if unlinking(path) == 0 {
                sweep.removed += 1
            } else if errno != ENOENT {
                sweep.unremovable.append(Self.fileError(errno, path: path, doing: "remove the leftover photo file"))
            }
        }
        return sweep
    }

    /// True for a name the leftover sweep looks at: a temporary file of an
    /// import or a photo file (`<UUID>.jpg`).
    static func isLeftoverName(_ name: String) -> Bool {
        (name.hasPrefix(".") && name.hasSuffix(".tmp")) || AtomicFile.isTemporaryName(name) || isValidName(name)
    }

    /// Opens the folder itself (for its `flock`).
    private static func openFolder(_ path: String) throws(StorageError) -> Int32 {
        let fd = posixOpen(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw fileError(errno, path: path, doing: "open the folder") }
        return fd
    }

    // MARK: - Writing

    /// Writes the file (exactly 0600) from the chunks `produce` emits,
    /// hashing them on the way, through `AtomicFile`: a temporary file
    /// flushed and renamed into place, so a reader sees the whole file or none.
    private func write(
        named name: String,
        _ produce: ((UnsafeRawBufferPointer) throws(StorageError) -> Void) throws(StorageError) -> Void
    )
        throws(StorageError) -> StoredPhotoFile
    {
        let target = try url(for: name)
        let hasher = try SHA256.Hasher()
        var size: Int64 = 0
        try AtomicFile.replace(
            target.path, mode: 0o600, exactMode: true,
            failure: { Self.fileError($0.errno, path: target.path, doing: $0.action) }
        ) {
            (output: Int32) throws(StorageError) in
            try produce { (bytes: UnsafeRawBufferPointer) throws(StorageError) in
                hasher.update(bytes)
                do throws(OutputError) {
                    try DescriptorWriter.writeAll(output, bytes, target: target.path)
                } catch {
                    throw Self.fileError(error.errno, path: target.path, doing: "write")
                }
                size += Int64(bytes.count)
            }
        }
        return StoredPhotoFile(fileName: name, byteSize: size, sha256: try hasher.finish())
    }

    // MARK: - Helpers shared with SHA256

    /// Opens a file for reading, with a clear error when it cannot be.
    static func openForReading(_ path: String) throws(StorageError) -> Int32 {
        let fd = posixOpen(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw fileError(errno, path: path, doing: "read") }
        return fd
    }

    /// Reads an open file to its end in 64 KiB chunks, one buffer reused.
    static func forEachChunk(
        of fd: Int32, path: String,
        _ body: (UnsafeRawBufferPointer) throws(StorageError) -> Void
    ) throws(StorageError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: SHA256.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw fileError(errno, path: path, doing: "read")
            }
            if n == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }

    static func makePrivateDirectory(_ path: String) throws(StorageError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StorageError(.permission, "'\(path)' is a file, not a folder; move it aside.", context: path)
            }
        } else {
            try makeFolders(path)
        }
        guard chmod(path, 0o700) == 0 else {
            throw fileError(errno, path: path, doing: "protect")
        }
    }

    /// Creates `path` and any missing parents (mode 0700), each mkdir(2)
    /// checked, so a failure is reported with its own cause: a full disk, a
    /// permission, or the device failing.
    private static func makeFolders(_ path: String) throws(StorageError) {
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, !FileManager.default.fileExists(atPath: parent) {
            try makeFolders(parent)
        }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            let code = errno
            if code == EACCES || code == EPERM || code == EROFS {
                throw StorageError(
                    .permission,
                    "The folder '\(path)' cannot be created (\(String(cString: strerror(code)))); check the permissions of its parent.",
                    context: path)
            }
            throw fileError(code, path: path, doing: "create the folder")
        }
    }

    /// The error for a failed file call, in the words a person needs.
    static func fileError(_ code: Int32, path: String, doing action: String) -> StorageError {
        let native = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT:
            return StorageError(.diskFull, StorageError.diskFullMessage, context: path)
        case ENOENT:
            return StorageError(.notFound, "There is no file at '\(path)'.", context: path)
        case EACCES, EPERM, EROFS:
            return StorageError(
                .permission, "Cannot \(action) '\(path)' (\(native)); check its permissions.", context: path)
        default:
            return StorageError(.io, "Cannot \(action) '\(path)' (\(native)).", context: path)
        }
    }
}
