import Foundation
import Synchronization

/// A running `jqc-server` on a free loopback port, started from the built
/// binary as an operator would start it. Stopped with SIGTERM on `stop()`,
/// on release, or when the test process exits.
public final class ServerProcess: @unchecked Sendable {
    // Immutable after init except `process`, which only `stop()` ends.
    public let baseURL: String

    /// The options of a server many suites share at once: every one of their
    /// clients comes from the loopback address, and the idle keep-alive
    /// connections of a few hundred requests within the idle timeout would
    /// pass the default limit per address (which its own tests check), so
    /// the server would drop new ones unanswered.
    public static let manyClients = ["--max-connections-per-address", "2048"]
    public let databasePath: String
    /// Where the server streams uploads before checking them.
    public let uploadDirectory: String
    public let directory: TemporaryDirectory
    private let process: ChildProcess
    private let stderrPath: String
    private let crashReported = Atomic<Bool>(false)

    /// Starts the server with `--port 0 --db <tmp>/server.db` (a new PostgreSQL
    /// database instead under `JQC_TEST_SERVER_DATABASE=postgres`; or `database`, to
    /// restart on the data of an earlier server) and `arguments`, and waits for
    /// its `listening on http://HOST:PORT` line.
    /// `before` runs against the database path first (to add users with the admin command).
    /// `sqlite` keeps the server on a SQLite file whatever the run's store
    /// (for tests of that store's files).
    /// `clock` runs the server under libfaketime, its wall clock set there (an instance whose clock is ahead).
    /// `environment` is added to the server's; `uploadFolder: false` leaves a PostgreSQL server to choose its upload folder.
    public init(
        _ arguments: [String] = ["--demo"], database: String? = nil, sqlite: Bool = false, clock: DeviceClock? = nil,
        environment: [String: String] = [:], uploadFolder: Bool = true, before: (String) throws -> Void = { _ in }
    ) throws {
        directory = TemporaryDirectory(prefix: "jqc-server")
        let postgresRun = ServerDatabases.usePostgres && !sqlite
        databasePath = try database ?? (postgresRun ? ServerDatabases.freshPostgres() : directory.path("server.db"))
        stderrPath = directory.path("server.stderr")
        let postgres = databasePath.hasPrefix("postgres://")
        uploadDirectory = postgres ? directory.path("uploads") : databasePath + ".photos/incoming"
        try before(databasePath)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let serverArguments =
            ["--port", "0", "--db", databasePath] + (postgres && uploadFolder ? ["--upload-dir", uploadDirectory] : [])
            + arguments
        // A server that crashes leaves the stacks of all its threads in its stderr, which `stop()` shows.
        let inherited = ProcessInfo.processInfo.environment.merging(Self.crashReport) { own, _ in own }
        let process: ChildProcess
        if let clock {
            try DeviceClock.requireWrapper()
            process = try ChildProcess(
                DeviceClock.wrapper, clock.wrapperArguments + [Programs.path("jqc-server")] + serverArguments,
                environment: inherited.merging(DeviceClock.environment) { _, new in new }, stdout: .pipe,
                stderr: .file(stderrPath))
        } else {
            process = try ChildProcess(
                Programs.path("jqc-server"), serverArguments,
                environment: inherited.merging(environment) { _, new in new }, stdout: .pipe,
                stderr: .file(stderrPath))
        }
        self.process = process
        _ = ServerProcess.running.withLock { $0.insert(process.pid) }
        ServerProcess.installExitHandler
        guard let out = process.output, let line = ServerProcess.firstLine(of: out, timeout: 60),
            line.hasPrefix("listening on http://")
        else {
            process.terminate()
            process.wait()
            _ = ServerProcess.running.withLock { $0.remove(process.pid) }
            let err = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
            throw ServerLaunchError(message: "jqc-server did not print its address; stderr: \(err)")
        }
        baseURL = String(line.dropFirst("listening on ".count))
    }

    /// The URL of a contract path such as `/auth/login`.
    public func url(_ path: String) -> String { baseURL + "/api/v1" + path }

    /// The server's process id (for `/proc/PID/status`).
    public var pid: Int32 { process.pid }

    /// What the server wrote to stderr so far.
    public var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Sends SIGTERM and waits for the exit status.
    @discardableResult
    public func stop() -> Int32 {
        if process.isRunning {
            // Under the clock wrapper the server is the wrapper's child, which the wrapper waits for
            // without passing signals on: the server is told first.
            let pid = process.pid
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, SIGTERM) }
            process.terminate()
        }
        let exit = process.wait()
        _ = ServerProcess.running.withLock { $0.remove(process.pid) }
        if exit.signalled && Self.crashSignals.contains(exit.status) {
            reportCrash(signal: exit.status)
        }
        return exit.status
    }

    /// The signals of a crash (a bad pointer, a failed check), not of a stop or a kill a test sends.
    private static let crashSignals: Set<Int32> = [SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP]

    /// The Swift runtime's report of a crash: every thread's stack, written to the server's stderr.
    private static let crashReport = ["SWIFT_BACKTRACE": "enable=yes,threads=all,interactive=no"]

    /// A server that ended on a signal: its stderr (with the runtime's backtrace, if it crashed) goes
    /// to the test run's stderr once, before the folder holding it is removed.
    private func reportCrash(signal: Int32) {
        guard !crashReported.exchange(true, ordering: .relaxed) else { return }
        let text = stderr
        let tail = text.count > 60_000 ? "...\n" + String(text.suffix(60_000)) : text
        FileHandle.standardError.write(
            Data(
                ("jqc-server \(process.pid) (\(databasePath.hasPrefix("postgres://") ? "PostgreSQL" : "SQLite")) "
                    + "ended on signal \(signal); its stderr:\n\(tail)\n").utf8))
    }

    deinit { stop() }

    private static let running = Mutex<Set<Int32>>([])

    /// Stops any server still running when the test process exits.
    private static let installExitHandler: Void = {
        atexit {
            for pid in ServerProcess.running.withLock({ $0 }) { kill(pid, SIGTERM) }
        }
    }()

    private static func firstLine(of handle: FileHandle, timeout: TimeInterval) -> String? {
        let box = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var bytes = Data()
            while true {
                let chunk = handle.readAvailable()
                if chunk.isEmpty { break }
                bytes.append(chunk)
                if let newline = bytes.firstIndex(of: 10) {
                    let line = String(decoding: bytes[..<newline], as: UTF8.self)
                    box.withLock { $0 = line }
                    break
                }
            }
            done.signal()
        }
        _ = done.wait(timeout: .now() + timeout)
        return box.withLock { $0 }
    }
}

/// The server did not start.
public struct ServerLaunchError: Error, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
