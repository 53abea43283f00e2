import Foundation

/// A built program started in its own process, its output collected on
/// background threads so that it never blocks on a full pipe.
public final class RunningProgram: @unchecked Sendable {
    // Written by the two reader threads under `lock`.
    private let process = Process()
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
        if let clock {
            try DeviceClock.requireWrapper()
            process.executableURL = URL(fileURLWithPath: DeviceClock.wrapper)
            process.arguments = clock.wrapperArguments + [Programs.path(name)] + arguments
            for (key, value) in DeviceClock.environment { env[key] = value }
        } else {
            process.executableURL = URL(fileURLWithPath: Programs.path(name))
            process.arguments = arguments
        }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if let stdin {
            try input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        done.enter()
        done.enter()
        DispatchQueue.global().async { [self] in
            Self.drain(out.fileHandleForReading) { chunk in lock.withLock { outData.append(chunk) } }
            done.leave()
        }
        DispatchQueue.global().async { [self] in
            Self.drain(err.fileHandleForReading) { chunk in lock.withLock { errData.append(chunk) } }
            done.leave()
        }
    }

    /// Whether the program is still running.
    public var isRunning: Bool { process.isRunning }

    /// The program's process id (to send it a signal).
    public var pid: Int32 { process.processIdentifier }

    /// Reads `handle` chunk by chunk until its end.
    private static func drain(_ handle: FileHandle, into append: (Data) -> Void) {
        while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty {
            append(chunk)
        }
    }

    /// Waits for the process to end and returns what it printed and its status.
    /// A pipe can stay open after the program exits when a process started at
    /// that moment elsewhere (a server another test started) inherited its end:
    /// what the program wrote has been read by then, so after a grace period
    /// the outcome is returned without waiting for that end.
    public func wait() -> ProcessOutcome {
        process.waitUntilExit()
        _ = done.wait(timeout: .now() + 10)
        return lock.withLock {
            ProcessOutcome(
                status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                stderr: String(decoding: errData, as: UTF8.self))
        }
    }
}
