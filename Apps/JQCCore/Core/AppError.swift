import ArgumentParsing
import Models

/// The one error type of the apps: a machine code for `--json`, one line for
/// a person, the exit code of docs/commands.md, and, for validation, every problem found.
public struct AppError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Machine code, as in `{"error": {"code": ...}}` (`.notFound`, `.photoCapExceeded`): one of `Code`'s catalogue.
    public let code: Code
    /// What went wrong, with the offending value quoted, and what to do next.
    public let message: String
    /// The process exit code.
    public let exitCode: ExitCode
    /// Every individual problem, for errors that collect them (missing answers, template lint).
    public let problems: [String]

    public init(code: Code, _ message: String, exitCode: ExitCode, problems: [String] = []) {
        self.code = code
        self.message = message
        self.exitCode = exitCode
        self.problems = problems
    }

    public var description: String { message }

    /// A usage error (exit 2).
    public static func usage(_ message: String) -> AppError {
        AppError(code: .usage, message, exitCode: ExitCode.usage)
    }

    /// Something named does not exist (exit 3).
    public static func notFound(_ message: String) -> AppError {
        AppError(code: .notFound, message, exitCode: ExitCode.notFound)
    }

    /// Input that fails validation (exit 4).
    public static func validation(_ message: String, problems: [String] = [], code: Code = .validationFailed)
        -> AppError
    {
        AppError(code: code, message, exitCode: ExitCode.validation, problems: problems)
    }

    /// Refused by a rule: state, cap, floor, version gate (exit 5).
    public static func blocked(_ code: Code, _ message: String) -> AppError {
        AppError(code: code, message, exitCode: ExitCode.blocked)
    }

    /// Any other failure (exit 1).
    public static func failure(_ code: Code, _ message: String) -> AppError {
        AppError(code: code, message, exitCode: ExitCode.failure)
    }

    /// Standard output failed mid-command. Its cause is recorded on
    /// `OutputChannel.standardOutput` and reported once as the program exits.
    public static let outputFailed = AppError(
        code: .outputFailed, "Standard output could not be written.",
        exitCode: ExitCode.failure)
}

/// The exit codes of docs/commands.md, named (ArgumentParsing's `ExitCode`).
public typealias ExitCode = ArgumentParsing.ExitCode
