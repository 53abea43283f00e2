import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Runs a command to its end with posix_spawn and waitpid, its output going
/// to temporary files: for commands that leave daemons behind (a PostgreSQL
/// server), which Foundation's `Process` does not always see end.
public enum Subprocess {
    /// Runs `path` with `arguments` and extra `environment`; returns its outcome.
    public static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> ProcessOutcome
    {
        let folder = TemporaryDirectory(prefix: "jqc-subprocess")
        let outPath = folder.path("stdout"), errPath = folder.path("stderr")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw PostgresClusterError(message: "cannot run '\(path)': \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7f) == 0
        let code = exited ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return ProcessOutcome(status: code, stdout: output, stderr: errors)
    }
}
