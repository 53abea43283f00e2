import Foundation

/// An exclusive `flock` on a file in the profile. The kernel releases it when
/// the holder ends, however it ends, so a killed process never leaves a stale
/// lock. Two locks are taken through it:
///
/// - `agent.lock`, held by `jqc-agent` for its whole run: a second agent finds
///   it taken and stops at once (exit 73);
/// - `sync.lock`, held for one sync cycle by whoever runs it (`jqc sync`, the
///   menu, the agent): a cycle started while another runs waits for it to
///   finish, then runs with what is still to do, so two sync engines never
///   work on one store at once (exit 75 if it is still running after ten minutes).
public final class ProfileLock {
    private let descriptor: Int32

    /// Takes the lock on `name` in `profileDirectory` when it is free; nil when another process holds it.
    public static func take(_ name: String, in profileDirectory: URL) throws(AppError) -> ProfileLock? {
        let (fd, path) = try openFile(name, in: profileDirectory)
        guard try attempt(fd, path: path) else {
            close(fd)
            return nil
        }
        return ProfileLock(descriptor: fd)
    }

    /// Takes the lock on `name` in `profileDirectory`, waiting up to `patience`
    /// seconds for its holder (`waiting` is called once if it has to wait); nil
    /// when it is still held after that. The wait is a suspension, not a
    /// blocked thread, so it holds no thread another task of the process needs.
    public static func take(
        _ name: String, in profileDirectory: URL, patience: TimeInterval, waiting: () -> Void = {}
    ) async throws(AppError) -> ProfileLock? {
        let (fd, path) = try openFile(name, in: profileDirectory)
        let deadline = Date().addingTimeInterval(patience)
        var told = false
        while try !attempt(fd, path: path) {
            guard Date() < deadline else {
                close(fd)
                return nil
            }
            if !told { waiting(); told = true }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        return ProfileLock(descriptor: fd)
    }

    /// Opens (or makes, 0600) the lock file `name` in `profileDirectory`.
    private static func openFile(_ name: String, in profileDirectory: URL) throws(AppError) -> (Int32, String) {
        let path = profileDirectory.appendingPathComponent(name).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw AppError.failure(
                .lockUnavailable, "Cannot open the lock '\(path)': \(String(cString: strerror(errno))).")
        }
        return (fd, path)
    }

    /// One try at the lock on `fd`: true when taken, false while another holds it (the file is closed on an error).
    private static func attempt(_ fd: Int32, path: String) throws(AppError) -> Bool {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let reason = errno
            if reason == EINTR { continue }
            guard reason == EWOULDBLOCK else {
                close(fd)
                throw AppError.failure(.lockUnavailable, "Cannot lock '\(path)': \(String(cString: strerror(reason))).")
            }
            return false
        }
        return true
    }

    /// The agent's lock, or exit 73 when another agent holds it. Holds the agent's pid.
    public static func agent(profileDirectory: URL) throws(AppError) -> ProfileLock {
        guard let lock = try take("agent.lock", in: profileDirectory) else {
            throw AppError(
                code: .agentRunning, "Another jqc-agent is already syncing this profile; this one stops.",
                exitCode: ExitCode.lockHeld)
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(lock.descriptor, 0)
        _ = pid.withCString { write(lock.descriptor, $0, strlen($0)) }
        return lock
    }

    /// One sync cycle's lock, after any cycle already running has finished (exit 75 after `patience`).
    static func syncCycle(profileDirectory: URL, patience: TimeInterval = 600, waiting: () -> Void)
        async throws(AppError) -> ProfileLock
    {
        guard let lock = try await take("sync.lock", in: profileDirectory, patience: patience, waiting: waiting) else {
            throw AppError(
                code: .syncRunning, "Another sync of this profile is still running; try again later. Nothing was lost.",
                exitCode: ExitCode.temporary)
        }
        return lock
    }

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
