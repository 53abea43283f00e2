import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Runs a command to its end, its output going to temporary files: for
/// commands that leave daemons behind (a PostgreSQL server), which would
/// hold a pipe open.
public enum Subprocess {
    /// Runs `path` with `arguments` and extra `environment`; returns its outcome.
    public static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> ProcessOutcome
    {
        let folder = TemporaryDirectory(prefix: "jqc-subprocess")
        let outPath = folder.path("stdout"), errPath = folder.path("stderr")
        let process: ChildProcess
        do {
            process = try ChildProcess(
                path, arguments, environment: ChildProcess.environment(adding: environment),
                stdout: .file(outPath), stderr: .file(errPath))
        } catch {
            throw PostgresClusterError(message: "\(error)")
        }
        let exit = process.wait()
        let code = exit.signalled ? 128 + exit.status : exit.status
        let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let errors = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return ProcessOutcome(status: code, stdout: output, stderr: errors)
    }
}
