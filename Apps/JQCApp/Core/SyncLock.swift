import Foundation

/// The lock a sync cycle holds on a profile, whoever runs it (`jqc sync`,
/// the home menu or `jqc-agent`), so two cycles never work on one store at
/// once: the later one waits for the earlier to finish, then runs with what
/// is still to do. An `flock` on a file in the profile; the kernel releases
/// it when the holder ends, however it ends, so a killed cycle never leaves
/// a stale lock. (`AgentLock` is the other lock: one agent per profile.)
final class SyncLock {
    private let descriptor: Int32

    /// Takes the lock, waiting up to `patience` seconds for a cycle already
    /// running; `waiting` is called once if it has to wait. Exit 75 when the
    /// other cycle is still running after that.
    init(profileDirectory: URL, patience: TimeInterval = 600, waiting: () -> Void = {}) throws(AppError) {
        let path = profileDirectory.appendingPathComponent("sync.lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw AppError.failure("LOCK_UNAVAILABLE", "Cannot open the sync lock '\(path)': \(String(cString: strerror(errno))).")
        }
        let deadline = Date().addingTimeInterval(patience)
        var told = false
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let reason = errno
            guard reason == EWOULDBLOCK || reason == EINTR else {
                close(fd)
                throw AppError.failure("LOCK_UNAVAILABLE", "Cannot lock '\(path)': \(String(cString: strerror(reason))).")
            }
            guard Date() < deadline else {
                close(fd)
                throw AppError(code: "SYNC_RUNNING", "Another sync of this profile is still running; try again later. Nothing was lost.",
                               exitCode: ExitCode.temporary)
            }
            if !told { waiting(); told = true }
            usleep(50_000)
        }
        descriptor = fd
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
