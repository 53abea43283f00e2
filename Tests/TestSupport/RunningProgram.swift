import Foundation

/// A built program started in its own process, its output collected on
/// background threads so that it never blocks on a full pipe.
public final class RunningProgram: @unchecked Sendable {
    // Written by the two reader threads under `lock`.
    private let process: ChildProcess
    private let done = DispatchGroup()
    private var outData = Data()
    private var errData = Data()
    private let lock = NSLock()

    /// Starts `name` (a product of this package) with these arguments, extra
    /// environment variables, and `stdin` written to its standard input (closed after);
    /// with a `clock`, the program reads that clock instead of the real one.
    public init(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
        clock: DeviceClock? = nil
    ) throws {
        var env = ProcessInfo.processInfo.environment
        let executable: String
        let allArguments: [String]
        if let clock {
            try DeviceClock.requireWrapper()
            executable = DeviceClock.wrapper
            allArguments = clock.wrapperArguments + [Programs.path(name)] + arguments
            for (key, value) in DeviceClock.environment { env[key] = value }
        } else {
            executable = Programs.path(name)
            allArguments = arguments
        }
        for (key, value) in environment { env[key] = value }
        process = try ChildProcess(
            executable, allArguments, environment: env, stdin: stdin.map { .text($0) } ?? .null, stdout: .pipe,
            stderr: .pipe)
        done.enter()
        done.enter()
        let out = process.output, err = process.errors
        DispatchQueue.global().async { [self] in
            if let out { Self.drain(out) { chunk in lock.withLock { outData.append(chunk) } } }
            done.leave()
        }
        DispatchQueue.global().async { [self] in
            if let err { Self.drain(err) { chunk in lock.withLock { errData.append(chunk) } } }
            done.leave()
        }
    }

    /// Whether the program is still running.
    public var isRunning: Bool { process.isRunning }

    /// The program's process id (to send it a signal).
    public var pid: Int32 { process.pid }

    /// Reads `handle` chunk by chunk until its end.
    private static func drain(_ handle: FileHandle, into append: (Data) -> Void) {
        while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty {
            append(chunk)
        }
    }

    /// Waits for the process to end and returns what it printed and its
    /// status (a signal's number, when one ended it). Only the program and
    /// what it started hold its output pipes; a process it left running
    /// would hold them open, so after a grace period what was read is returned.
    public func wait() -> ProcessOutcome {
        let exit = process.wait()
        _ = done.wait(timeout: .now() + 10)
        return lock.withLock {
            ProcessOutcome(
                status: exit.status, stdout: String(decoding: outData, as: UTF8.self),
                stderr: String(decoding: errData, as: UTF8.self))
        }
    }
}
