import Foundation

/// The exclusive lock one agent holds on a profile while it runs, so two
/// agents started together never sync the same store at once: the second
/// finds the lock taken and exits at once (exit 73). The lock is an `flock`
/// on a file in the profile; the kernel releases it when the process ends,
/// however it ends, so a killed agent never leaves a stale lock behind.
public final class AgentLock {
    private let descriptor: Int32
    /// The lock file's path.
    public let path: String

    /// Takes the lock, or throws `AppError` with exit 73 when another agent holds it.
    public init(profileDirectory: URL) throws(AppError) {
        path = profileDirectory.appendingPathComponent("agent.lock").path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw AppError.failure("LOCK_UNAVAILABLE", "Cannot open the agent lock '\(path)': \(String(cString: strerror(errno))).")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(fd)
            if reason == EWOULDBLOCK {
                throw AppError(code: "AGENT_RUNNING", "Another jqc-agent is already syncing this profile; this one stops.", exitCode: ExitCode.lockHeld)
            }
            throw AppError.failure("LOCK_UNAVAILABLE", "Cannot lock '\(path)': \(String(cString: strerror(reason))).")
        }
        descriptor = fd
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { write(fd, $0, strlen($0)) }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
