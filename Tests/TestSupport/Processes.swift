import Foundation

/// What a finished process printed and returned.
public struct ProcessOutcome: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs the project's built programs as separate processes, as a user would.
public enum Programs {
    /// The folder holding the built products (`.build/debug`), found from the test bundle's location.
    public static var productsDirectory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("jqc").path),
                !url.lastPathComponent.hasSuffix(".xctest")
            {
                return url
            }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The path of a built executable, such as `jqc`.
    public static func path(_ name: String) -> String {
        productsDirectory.appendingPathComponent(name).path
    }

    /// Starts a built executable without waiting for it; its output goes to `/dev/null`.
    public static func start(
        _ name: String, _ arguments: [String], environment: [String: String] = [:],
        stdin: String? = nil
    ) throws -> ChildProcess {
        try ChildProcess(
            path(name), arguments, environment: ChildProcess.environment(adding: environment),
            stdin: stdin.map { .text($0) } ?? .null)
    }

    /// Runs a built executable to the end and returns its outcome; with a
    /// `clock`, the program reads that clock instead of the real one.
    public static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:],
        stdin: String? = nil, clock: DeviceClock? = nil
    ) throws -> ProcessOutcome {
        try RunningProgram(name, arguments, environment: environment, stdin: stdin, clock: clock).wait()
    }
}

extension Programs {
    /// Runs `command` with bash (a pipeline, as a person types it) and returns its outcome.
    public static func runShell(_ command: String) throws -> ProcessOutcome {
        let process = try ChildProcess(
            "/bin/bash", ["-c", command], environment: ProcessInfo.processInfo.environment, stdout: .pipe,
            stderr: .pipe)
        // Small outputs only: both pipes are read after each other.
        let output = try process.output?.readToEnd() ?? Data()
        let errors = try process.errors?.readToEnd() ?? Data()
        let exit = process.wait()
        return ProcessOutcome(
            status: exit.status, stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: errors, as: UTF8.self))
    }
}
