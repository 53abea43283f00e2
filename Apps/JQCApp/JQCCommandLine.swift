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

/// This app's version, sent as `X-JQC-App-Version` and compared with the server's minimum.
public enum AppVersion {
    public static let current = "0.1.0"
}
