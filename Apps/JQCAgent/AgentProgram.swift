import Foundation
import JQCCore
import Models

/// `jqc-agent`: the headless sync agent. Its commands and its warnings (log
/// events, not lines on a terminal nobody reads); the core runs it. It links
/// the core and nothing of the inspector's command line, menu or runner.
public enum AgentProgram {
    /// The program `jqc-agent`.
    public static let program = Program(
        name: "jqc-agent",
        summary: "JanitorialQC sync agent: uploads this device's completed work, for cron or a systemd timer.",
        commands: { program in
            [AgentCommands.run, StatusCommands.status, HelpCommands.help(program), HelpCommands.completion(program)]
        },
        warn: { message in (try? AgentLog(file: nil))?.log(.warn, "field_type_warning", ["message": .string(message)]) }
    )

    /// Runs `jqc-agent` with these arguments and returns its exit code.
    public static func run(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment)
        async -> Int32
    {
        await ProgramRunner.run(program, arguments: arguments, environment: environment)
    }
}
