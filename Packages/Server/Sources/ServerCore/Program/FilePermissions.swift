import Foundation
import ServerStore

/// What the server does to its files at start-up: only its own user may
/// read the database (it holds the token signing key and password hashes),
/// its WAL and shared-memory files, or the photos; uploads a killed process
/// left half-written are removed; enough file descriptors for every connection.
enum FilePermissions {
    /// Sets the process's umask to 077 and narrows what already exists:
    /// the database and its `-wal`/`-shm` files to 0600, the photo folder to 0700.
    static func restrict(_ config: ServerConfig) {
        umask(0o077)
        guard !DatabaseLocation.isPostgres(config.database) else { return }
        let databasePath = config.database
        let photoDirectory = PhotoVault.directory(besideDatabase: databasePath)
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = databasePath + suffix
            if FileManager.default.fileExists(atPath: path) { chmod(path, 0o600) }
        }
        for folder in [photoDirectory, photoDirectory + "/incoming"]
        where FileManager.default.fileExists(atPath: folder) {
            chmod(folder, 0o700)
        }
    }

    /// Removes `upload-*` files in `folder` not written to for `age` seconds
    /// (no live upload is that old: the body deadline is shorter); returns how many.
    static func sweepUploads(in folder: String, olderThan age: TimeInterval) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        let cutoff = Date().addingTimeInterval(-age)
        var removed = 0
        for name in names where name.hasPrefix("upload-") {
            let path = folder + "/" + name
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                modified < cutoff
            else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Raises the soft limit on open files toward the hard one so `connections`
    /// sockets fit beside the database and photo files; returns how many fit.
    static func raiseOpenFileLimit(toServe connections: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return connections }
        let wanted = rlim_t(connections + 256)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return max(16, min(connections, Int(limit.rlim_cur) - 256))
    }
}
