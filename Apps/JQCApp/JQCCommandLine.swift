import Foundation
import Networking
import Storage

@_exported import func Foundation.exit

/// The entry point both executables share: parses the arguments, runs the
/// command, prints, and returns the exit code of CLI.md.
public enum JQCCommandLine {
    /// Which program is running.
    public enum Program: Sendable {
        case jqc
        case agent

        var name: String {
            switch self {
            case .jqc: return "jqc"
            case .agent: return "jqc-agent"
            }
        }
    }

    /// Runs one invocation and returns its exit code.
    public static func run(program: Program, arguments: [String]) -> Int32 {
        if arguments.first == "--version" || arguments.first == "version" {
            print("\(program.name) \(AppVersion.current) (SQLite \(SQLiteInfo.version), libcurl \(Libcurl.version))")
            return ExitCode.ok
        }
        if arguments.isEmpty || arguments.first == "--help" || arguments.first == "-h" || arguments.first == "help" {
            print(usage(program))
            return ExitCode.ok
        }
        FileHandle.standardError.write(Data("\(program.name): unknown command '\(arguments[0])'. Run '\(program.name) --help' for the list of commands.\n".utf8))
        return ExitCode.usage
    }

    static func usage(_ program: Program) -> String {
        """
        Usage: \(program.name) <command> [options]

        Commands:
          --version   print the version of \(program.name) and of the libraries it uses
          --help      show this help
        """
    }
}

/// The exit codes of CLI.md.
public enum ExitCode {
    public static let ok: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 2
    public static let notFound: Int32 = 3
    public static let validation: Int32 = 4
    public static let blocked: Int32 = 5
    public static let authRequired: Int32 = 6
    public static let conflict: Int32 = 7
    public static let lockHeld: Int32 = 73
    public static let temporary: Int32 = 75
}

/// This app's version, sent as `X-JQC-App-Version` and compared with the server's minimum.
public enum AppVersion {
    public static let current = "0.1.0"
}
