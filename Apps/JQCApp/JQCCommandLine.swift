import ArgumentParsing
import Foundation
import JQCCore
import LineEditing
import ProgramOutput

/// `jqc`: the inspector's program. Its commands, and the home menu it opens
/// when run with no command at a terminal; the core runs it.
public enum JQCCommandLine {
    /// The program `jqc`.
    public static let program = Program(
        name: "jqc",
        summary: "JanitorialQC: run facility inspections offline, attach photos, flag issues, sync when you can.",
        commands: { program in
            ReportCommands.all + [RunCommand.run] + ReferenceCommands.all + StatusCommands.all
                + PhotoIssueCommands.all + [ExportCommand.export] + AccountCommands.all + SyncCommands.all
                + ConflictCommands.all + HistoryCommands.all + ReviewCommands.all + ActionCommands.all + [
                    ReturnedCommand.returned, MigrateCommand.migrate,
                ] + FieldTypeCommands.all
                + [HelpCommands.help(program), HelpCommands.completion(program)]
        },
        warn: { message in OutputChannel.standardError.write("jqc: warning: \(oneLine(message))\n") },
        atTerminalWithoutCommand: { arguments, environment in
            await openHomeMenu(arguments: arguments, environment: environment)
        })

    /// Runs `jqc` with these arguments and returns its exit code.
    public static func run(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment)
        async -> Int32
    {
        await ProgramRunner.run(program, arguments: arguments, environment: environment)
    }

    /// `jqc` with no command on a terminal: the home menu on standard input and output.
    static func openHomeMenu(arguments: [String], environment: [String: String]) async -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser(globalOptions: GlobalOptions.all).parse(
                arguments, for: CommandSpec("", summary: ""))
        } catch {
            return ProgramRunner.report(AppError.usage(error.message), program: program, json: false)
        }
        let clears = environment["TERM"] != "dumb"
        let reader = LineReader(writePrompt: { standardOutput.write($0) })
        let io = MenuIO(
            // A menu whose screen is gone has nobody to answer it: it reads no further.
            readLine: { standardOutput.failure == nil ? reader.readLine(prompt: $0) : nil },
            write: { standardOutput.line($0) },
            clear: { if clears { standardOutput.write("\u{1B}[H\u{1B}[2J") } })
        do {
            return ExitCode(
                rawValue: try await HomeMenu(
                    context: ProgramRunner.makeContext(parsed, environment: environment, program: program), io: io
                ).run())
        } catch {
            return ProgramRunner.report(error, program: program, json: false)
        }
    }
}
