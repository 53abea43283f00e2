import Foundation

/// A built program started in its own process, its output collected on
/// background threads so that it never blocks on a full pipe.
public final class RunningProgram: @unchecked Sendable {
    // Written by the two reader threads before `done` is signalled, read only after.
    private let process = Process()
    private let done = DispatchGroup()
    private var outData = Data()
    private var errData = Data()

    /// Starts `name` (a product of this package) with these arguments.
    public init(_ name: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: Programs.path(name))
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        done.enter()
        done.enter()
        DispatchQueue.global().async { [self] in
            outData = out.fileHandleForReading.readDataToEndOfFile()
            done.leave()
        }
        DispatchQueue.global().async { [self] in
            errData = err.fileHandleForReading.readDataToEndOfFile()
            done.leave()
        }
    }

    /// Waits for the process to end and returns what it printed and its status.
    public func wait() -> ProcessOutcome {
        done.wait()
        process.waitUntilExit()
        return ProcessOutcome(status: process.terminationStatus,
                              stdout: String(decoding: outData, as: UTF8.self),
                              stderr: String(decoding: errData, as: UTF8.self))
    }
}
