import Foundation
import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why one exchange with a plugin process failed, before it is worded for a person.
enum PluginIOFailure: Error {
    /// The plugin closed its end: it exited or shut its standard output.
    case closed
    /// The deadline passed with no complete answer.
    case timedOut
    /// The answer line grew past the limit without ending.
    case tooLong
    /// The operating system refused (the text says what).
    case system(String)
}

/// One running plugin: its process id and the two pipe ends this program holds.
///
/// Not Sendable: a `PluginConnection` owns it and touches it only while
/// holding its lock. Both pipe ends are non-blocking and every wait goes
/// through `poll` with the exchange's deadline, so a plugin that stops
/// reading or stops writing can delay the caller by the time limit at most.
final class PluginProcess {
    /// The plugin's process id.
    let pid: pid_t
    /// Our end of the plugin's standard input; -1 once closed.
    private var input: Int32
    /// Our end of the plugin's standard output; -1 once closed.
    private var output: Int32
    /// Bytes read past the last complete line.
    private var pending: [UInt8] = []
    /// How the process ended, once it has been waited for.
    private(set) var ending: String?

    private init(pid: pid_t, input: Int32, output: Int32) {
        self.pid = pid
        self.input = input
        self.output = output
    }

    /// Starts `path` with no arguments: its standard input and output are
    /// pipes to this program, its standard error is this program's. The
    /// signals this program ignores or blocks (SIGPIPE, the server's SIGTERM)
    /// are restored to their defaults in the plugin.
    static func start(_ path: String) throws(PluginIOFailure) -> PluginProcess {
        // One start at a time, so no plugin started at the same moment inherits
        // another's pipe ends before they are marked close-on-exec.
        try spawning.withLock { _ throws(PluginIOFailure) in try spawn(path) }
    }

    private static let spawning = Mutex(())

    private static func spawn(_ path: String) throws(PluginIOFailure) -> PluginProcess {
        var toPlugin: [Int32] = [-1, -1]
        var fromPlugin: [Int32] = [-1, -1]
        guard pipe(&toPlugin) == 0 else { throw .system("cannot make a pipe: \(errorText(errno))") }
        guard pipe(&fromPlugin) == 0 else {
            let code = errno
            close(toPlugin[0]); close(toPlugin[1])
            throw .system("cannot make a pipe: \(errorText(code))")
        }
        for fd in toPlugin + fromPlugin {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toPlugin[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromPlugin[1], 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        // Its own process group, so that stopping it stops whatever it started too.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let environment = PluginProcess.environment(for: path).map { strdup("\($0.key)=\($0.value)") }
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in environment { free(pointer) }
        }
        var pid: pid_t = 0
        var status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        // "Text file busy": the executable is still open for writing somewhere (being installed,
        // or inherited by a program started at that moment); it is free again within moments.
        for _ in 0..<25 where status == ETXTBSY {
            usleep(20_000)
            status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        }
        close(toPlugin[0])
        close(fromPlugin[1])
        guard status == 0 else {
            close(toPlugin[1]); close(fromPlugin[0])
            throw .system(errorText(status))
        }
        for fd in [toPlugin[1], fromPlugin[0]] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return PluginProcess(pid: pid, input: toPlugin[1], output: fromPlugin[0])
    }

    deinit {
        stop()
    }

    /// Writes `line` and a line break before `deadline`. A plugin that has
    /// exited makes this throw `closed`; the SIGPIPE such a write raises is
    /// held back and discarded, so it never stops this program, whatever the
    /// program does with SIGPIPE otherwise.
    func send(_ line: [UInt8], deadline: UInt64) throws(PluginIOFailure) {
        guard input >= 0 else { throw .closed }
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&previous, SIGPIPE) == 0, sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec()
                _ = sigtimedwait(&pipeSignal, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        let bytes = line + [UInt8(ascii: "\n")]
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(input, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written > 0 {
                offset += written
                continue
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try wait(for: input, events: Int16(POLLOUT), deadline: deadline)
            case EPIPE: throw .closed
            default: throw .system("cannot write to it: \(Self.errorText(code))")
            }
        }
    }

    /// Reads one line (without its line break) before `deadline`; a line
    /// longer than `limit` bytes fails as soon as it is seen to be.
    func receiveLine(limit: Int, deadline: UInt64) throws(PluginIOFailure) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                guard end <= limit else { throw .tooLong }
                let line = Array(pending[..<end])
                pending.removeSubrange(...end)
                return line
            }
            guard pending.count <= limit else { throw .tooLong }
            guard output >= 0 else { throw .closed }
            try wait(for: output, events: Int16(POLLIN), deadline: deadline)
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
            if count > 0 {
                pending.append(contentsOf: chunk[..<count])
            } else if count == 0 {
                throw .closed
            } else {
                let code = errno
                if code == EINTR || code == EAGAIN || code == EWOULDBLOCK { continue }
                throw .system("cannot read from it: \(Self.errorText(code))")
            }
        }
    }

    /// Closes both pipes, kills the process and its process group unless it
    /// has already ended (waiting up to `grace` seconds for it to end by
    /// itself), and reaps it, so no zombie is left. Safe to call more than once.
    func stop(grace: TimeInterval = 0) {
        for fd in [input, output] where fd >= 0 { close(fd) }
        input = -1
        output = -1
        guard ending == nil else { return }
        var status: Int32 = 0
        let until = Self.deadline(after: grace)
        while DispatchTime.now().uptimeNanoseconds < until {
            if waitpid(pid, &status, WNOHANG) == pid {
                ending = Self.describe(status: status)
                // Anything it left running in its group goes too (the group's id stays reserved while it has members).
                kill(-pid, SIGKILL)
                return
            }
            usleep(5_000)
        }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        ending = grace > 0 ? "closed its pipes" : Self.describe(status: status)
    }

    /// Waits until `fd` is ready for `events`, or throws `timedOut` at `deadline`.
    private func wait(for fd: Int32, events: Int16, deadline: UInt64) throws(PluginIOFailure) {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { throw .timedOut }
            let milliseconds = Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw .system("cannot wait for it: \(Self.errorText(errno))") }
        }
    }

    /// The monotonic time `seconds` from now, in nanoseconds.
    static func deadline(after seconds: TimeInterval) -> UInt64 {
        DispatchTime.now().uptimeNanoseconds + UInt64(max(seconds, 0) * 1_000_000_000)
    }

    /// `exited with status 3`, `was killed by signal 9`, from a `waitpid` status.
    static func describe(status: Int32) -> String {
        let signal = status & 0x7F
        return signal == 0 ? "exited with status \((status >> 8) & 0xFF)" : "was killed by signal \(signal)"
    }

    /// The system's words for an errno value.
    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

extension PluginProcess {
    /// The variables a plugin is started with: not the caller's whole
    /// environment (which may hold tokens and passwords) but `PATH`, `HOME`,
    /// the locale, `TMPDIR` and `TZ`, and those named for the plugin itself,
    /// `JQC_FIELD_<NAME>_...` (`NAME` its type name in capitals), which is how
    /// a plugin documents the settings it reads.
    static func environment(for path: String, from caller: [String: String] = ProcessInfo.processInfo.environment)
        -> [String: String]
    {
        let file = (path as NSString).lastPathComponent
        let name = file.hasPrefix("jqc-field-") ? String(file.dropFirst("jqc-field-".count)).uppercased() : ""
        let prefix = "JQC_FIELD_\(name)_"
        let kept: Set<String> = ["PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TMPDIR", "TZ"]
        return caller.filter { kept.contains($0.key) || (!name.isEmpty && $0.key.hasPrefix(prefix)) }
    }
}
