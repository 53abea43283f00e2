import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// A small file system of its own (a tmpfs of a few megabytes) mounted on a
/// fresh temporary folder, so that a test can fill it to the last byte: a
/// profile or a server database on a disk that runs full. Unmounted on
/// release, or when the test process exits. Mounting needs root (CI and the
/// development machines run the tests as root); without it the initializer
/// throws a message saying so.
public final class SmallDisk: @unchecked Sendable {
    // Immutable after init; the mount is undone once, in `unmount()`.
    /// The folder the small file system is mounted on.
    public let path: String
    private let folder: TemporaryDirectory
    private let mounted = Mutex(true)

    /// Mounts a tmpfs of `megabytes` on a new temporary folder.
    public init(megabytes: Int) throws {
        folder = TemporaryDirectory(prefix: "jqc-smalldisk")
        path = folder.url.path
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(megabytes)m,mode=0700") == 0 else {
            let reason = String(cString: strerror(errno))
            throw SmallDiskError(
                message:
                    "cannot mount a \(megabytes) MB tmpfs on '\(path)' (\(reason)); the full-disk tests mount one and must run as root (as CI does)"
            )
        }
        _ = SmallDisk.mountedPaths.withLock { $0.insert(path) }
        SmallDisk.installExitHandler
    }

    /// A path inside the small disk.
    public func path(_ component: String) -> String {
        (path as NSString).appendingPathComponent(component)
    }

    /// Bytes still free on the small disk.
    public var freeBytes: Int64 {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return -1 }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Fills the disk with a file named `filler`, leaving `leaving` bytes free
    /// (rounded down to whole pages by the file system); returns its path.
    @discardableResult
    public func fill(leaving: Int64 = 0) throws -> String {
        let file = path("filler")
        let fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw SmallDiskError(message: "cannot create '\(file)': \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x5A, count: 4096)
        while freeBytes > leaving {
            let wanted = Int(min(Int64(chunk.count), max(freeBytes - leaving, 1)))
            let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, wanted) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == ENOSPC { break }
                throw SmallDiskError(message: "cannot fill '\(file)': \(String(cString: strerror(errno)))")
            }
            if written == 0 { break }
        }
        return file
    }

    /// Removes the filler file: the space is back.
    public func makeRoom() {
        unlink(path("filler"))
    }

    /// Unmounts the small disk (lazily, should a process still hold a file on it).
    public func unmount() {
        let wasMounted = mounted.withLock { (value: inout Bool) -> Bool in
            defer { value = false }
            return value
        }
        guard wasMounted else { return }
        umount2(path, Int32(MNT_DETACH))
        _ = SmallDisk.mountedPaths.withLock { $0.remove(path) }
    }

    deinit { unmount() }

    private static let mountedPaths = Mutex<Set<String>>([])

    /// Unmounts whatever is still mounted when the test process exits.
    private static let installExitHandler: Void = {
        atexit {
            for path in SmallDisk.mountedPaths.withLock({ $0 }) { umount2(path, Int32(MNT_DETACH)) }
        }
    }()
}

/// The small disk could not be made or filled.
public struct SmallDiskError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
