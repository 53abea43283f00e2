import CChildSpawn
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How a child process ended: its exit code, or the signal that ended it.
public struct ChildExit: Sendable, Equatable {
    /// The exit code, or the signal's number when `signalled`.
    public let status: Int32
    /// Whether a signal ended the process.
    public let signalled: Bool

    /// Decodes a status as `waitpid` reports it.
    init(waitStatus: Int32) {
        signalled = waitStatus & 0x7f != 0
        status = signalled ? waitStatus & 0x7f : (waitStatus >> 8) & 0xff
    }

    public init(status: Int32, signalled: Bool) {
        self.status = status
        self.signalled = signalled
    }
}

/// Where a child's standard stream goes.
public enum ChildStream: Sendable {
    /// `/dev/null`.
    case null
    /// A pipe whose other end the test holds (`output` or `errors`).
    case pipe
    /// For standard input: this text, written to a pipe and the pipe closed once the child has started.
    case text(String)
    /// A file, created if need be and appended to.
    case file(String)
}

/// A built program or tool started with `posix_spawn` in a process group of
/// its own, holding only the three standard descriptors given to it, and
/// waited for with `waitpid`.
///
/// Foundation's `Process` on Linux learns that a child ended when a socket
/// the child holds closes. A process started elsewhere at that moment (a
/// server another test starts) can inherit that socket, and the wait then
/// lasts as long as that process lives. A `ChildProcess` neither hands such
/// a descriptor on (every descriptor above 2 is closed in the child) nor
/// depends on one to see its own child end.
public final class ChildProcess: Sendable {
    /// The process id.
    public let pid: pid_t
    /// The read end of the child's standard output, for `.pipe`.
    public let output: FileHandle?
    /// The read end of the child's standard error, for `.pipe`.
    public let errors: FileHandle?
    /// Set once the child has been reaped; every `waitpid` that reaps happens under its lock.
    private let ended = Mutex<ChildExit?>(nil)

    /// Starts `path` with `arguments` and exactly `environment`, in `directory` if one is given.
    public init(
        _ path: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
        stdin: ChildStream = .null, stdout: ChildStream = .null, stderr: ChildStream = .null
    ) throws {
        /// A step of the set-up that returned an error number.
        func check(_ code: Int32, _ step: String) throws {
            guard code == 0 else { throw ChildProcessError.failed(step, path, code) }
        }
        var actions = posix_spawn_file_actions_t()
        try check(posix_spawn_file_actions_init(&actions), "prepare the start")
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let directory { try check(child_spawn_change_directory(&actions, directory), "name the directory") }
        // The ends the child keeps, closed here once it has started; the ends the test keeps.
        var childEnds: [Int32] = []
        var kept: [Int32: FileHandle] = [:]
        defer { for fd in childEnds { close(fd) } }
        for (target, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .null:
                try check(
                    posix_spawn_file_actions_addopen(
                        &actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0), "open /dev/null")
            case .file(let file):
                try check(
                    posix_spawn_file_actions_addopen(&actions, target, file, O_WRONLY | O_CREAT | O_APPEND, 0o600),
                    "open \(file)")
            case .pipe, .text:
                var ends: [Int32] = [-1, -1]
                guard child_spawn_pipe(&ends) == 0 else { throw ChildProcessError.failed("pipe", path, errno) }
                let (childEnd, testEnd) = target == 0 ? (ends[0], ends[1]) : (ends[1], ends[0])
                childEnds.append(childEnd)
                kept[target] = FileHandle(fileDescriptor: testEnd, closeOnDealloc: true)
                try check(posix_spawn_file_actions_adddup2(&actions, childEnd, target), "give the pipe")
            }
        }
        try check(child_spawn_close_from(&actions, 3), "close the other descriptors")
        var attributes = posix_spawnattr_t()
        try check(posix_spawnattr_init(&attributes), "prepare the start")
        defer { posix_spawnattr_destroy(&attributes) }
        try check(posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP)), "ask a process group")
        try check(posix_spawnattr_setpgroup(&attributes, 0), "ask a process group")
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        try check(spawned, "start")
        self.pid = pid
        if case .text(let text) = stdin, let input = kept[0] {
            try input.write(contentsOf: Data(text.utf8))
            try input.close()
        }
        output = kept[1]
        errors = kept[2]
    }

    /// Whether the process has not ended yet.
    public var isRunning: Bool { reap() == nil }

    /// Sends `signal`, unless the process has already been reaped (its id may be another's by then).
    public func signal(_ number: Int32) {
        ended.withLock { if $0 == nil { _ = kill(pid, number) } }
    }

    /// Sends SIGTERM.
    public func terminate() { signal(SIGTERM) }

    /// Waits for the process to end, and reaps it.
    @discardableResult
    public func wait() -> ChildExit {
        while true {
            if let exit = reap() { return exit }
            // Waits without reaping, so that only `reap` ever does.
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno != EINTR {
                return ended.withLock { $0 } ?? ChildExit(status: -1, signalled: false)
            }
        }
    }

    /// The outcome once the process has ended and been reaped, else nil.
    private func reap() -> ChildExit? {
        ended.withLock { ended in
            if ended == nil {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { ended = ChildExit(waitStatus: status) }
            }
            return ended
        }
    }

    /// The environment of this test process with `extra` added (and winning).
    public static func environment(adding extra: [String: String]) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(extra) { _, new in new }
    }
}

/// A child process could not be started.
public enum ChildProcessError: Error, CustomStringConvertible {
    case failed(String, String, Int32)

    public var description: String {
        switch self {
        case .failed(let step, let path, let code): "'\(path)': cannot \(step): \(String(cString: strerror(code)))"
        }
    }
}
