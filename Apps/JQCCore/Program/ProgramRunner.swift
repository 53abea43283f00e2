import ArgumentParsing
import FieldTypes
import Foundation
import Models
import Networking
import ProgramOutput
import Storage
import SQLite

/// Runs a program built on the core: finds the command, parses its
/// arguments, runs it, prints, and returns the exit code of docs/commands.md.
public enum ProgramRunner {
    /// Runs one invocation and returns its exit code. Output that could not
    /// be written decides the code last: quietly 141 when the reader closed
    /// the pipe (`jqc list | head -1`), 1 with the cause on stderr otherwise.
    public static func run(
        _ program: Program, arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> Int32 {
        ProgramExit.ignoreBrokenPipes()
        let code = await dispatch(program, arguments: arguments, environment: environment)
        return ProgramExit.code(code.rawValue, program: program.name)
    }

    /// The version line of `--version`.
    static func versionLine(_ program: Program) -> String {
        "\(program.name) \(AppVersion.current) (SQLite \(SQLiteInfo.version), libcurl \(Libcurl.version))"
    }

    /// The usage error for words that name no command, with the nearest name.
    static func lookupError(_ lookup: CommandCatalog.Lookup, program: Program, catalog: CommandCatalog) -> AppError? {
        switch lookup {
        case .unknownCommand(let word, let suggestion):
            let hint = suggestion.map { " Did you mean '\($0)'?" } ?? ""
            return AppError.usage(
                "unknown command '\(word)'.\(hint) Run '\(program.name) help' for the list of commands.")
        case .unknownSubcommand(let group, let word, let suggestion):
            let hint = suggestion.map { " Did you mean '\(group) \($0)'?" } ?? ""
            return AppError.usage(
                "'\(group)' has no command '\(word)'.\(hint) Its commands: \(catalog.subcommands(of: group).joined(separator: ", "))."
            )
        default:
            return nil
        }
    }

    /// Finds, parses and runs the command; prints its output or its error.
    static func dispatch(_ program: Program, arguments: [String], environment: [String: String]) async -> ExitCode {
        let commands = program.commands
        let catalog = CommandCatalog(commands: commands.map(\.spec), globalOptions: GlobalOptions.all)
        let wantsJSON = GlobalOptions.json.isWritten(in: arguments)
        let parser = ArgumentParser(globalOptions: GlobalOptions.all, program: program.name)
        let lookup = catalog.lookup(arguments)
        switch lookup {
        case .none:
            // Only global options: each must be known and complete (`jqc --home` alone is a usage error).
            let parsed: ParsedArguments
            do {
                parsed = try parser.parse(arguments, for: CommandSpec(program.name, summary: ""))
            } catch {
                return report(AppError.usage(error.message), program: program, json: wantsJSON)
            }
            if parsed[GlobalOptions.version] {
                if wantsJSON {
                    standardOutput.line(
                        JSONValue.object(["program": .string(program.name), "version": .string(AppVersion.current)])
                            .canonicalString())
                } else {
                    standardOutput.line(versionLine(program))
                }
                return ExitCode.ok
            }
            if wantsJSON {
                let list: [JSONValue] = catalog.commands.map {
                    .object(["name": .string($0.name), "summary": .string($0.summary)])
                }
                standardOutput.line(
                    JSONValue.object([
                        "program": .string(program.name), "version": .string(AppVersion.current),
                        "commands": .array(list),
                    ]).canonicalString())
                return ExitCode.ok
            }
            if let atTerminal = program.atTerminalWithoutCommand, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1,
                !parsed[GlobalOptions.help]
            {
                return await atTerminal(arguments, environment)
            }
            standardOutput.line(
                HelpFormatter.overview(
                    program: program.name, summary: program.summary,
                    commands: catalog.commands, globalOptions: GlobalOptions.all))
            return ExitCode.ok
        case .group(let group):
            do {
                _ = try parser.parse(arguments.filter { $0 != group }, for: CommandSpec(group, summary: ""))
            } catch {
                return report(AppError.usage(error.message), program: program, json: wantsJSON)
            }
            standardOutput.line(HelpFormatter.group(group, program: program.name, catalog: catalog))
            return ExitCode.ok
        case .unknownCommand, .unknownSubcommand:
            return report(
                lookupError(lookup, program: program, catalog: catalog) ?? AppError.usage("unknown command"),
                program: program,
                json: wantsJSON)
        case .command(let name, let rest):
            guard let command = commands.first(where: { $0.spec.name == name }) else {
                return report(AppError.usage("unknown command '\(name)'"), program: program, json: wantsJSON)
            }
            return await run(
                command, rest: rest, program: program, parser: parser, wantsJSON: wantsJSON, environment: environment)
        }
    }

    private static func run(
        _ command: Command, rest: [String], program: Program, parser: ArgumentParser, wantsJSON: Bool,
        environment: [String: String]
    ) async -> ExitCode {
        let parsed: ParsedArguments
        do {
            parsed = try parser.parse(rest, for: command.spec)
        } catch {
            return report(AppError.usage(error.message), program: program, json: wantsJSON)
        }
        if parsed[GlobalOptions.help] {
            standardOutput.line(
                HelpFormatter.help(command.spec, program: program.name, globalOptions: GlobalOptions.all))
            return ExitCode.ok
        }
        if parsed[GlobalOptions.version] {
            standardOutput.line(versionLine(program))
            return ExitCode.ok
        }
        let context = makeContext(parsed, environment: environment, program: program)
        do {
            let output = try await command.run(Invocation(arguments: parsed, context: context))
            if context.json {
                // A command that wrote its own output (the agent's log, the runner) returns JSON null.
                if !output.json.isNull { standardOutput.line(output.json.canonicalString()) }
            } else {
                for line in output.lines {
                    guard standardOutput.line(line) else { break }
                }
                if !output.diagnostics.isEmpty {
                    OutputChannel.standardError.write(output.diagnostics.map { oneLine($0) + "\n" }.joined())
                }
                // The status line is for a person at a terminal; a pipe (`jqc list | wc -l`) gets the output alone.
                if output.showsStatusLine, isatty(STDOUT_FILENO) == 1, standardOutput.failure == nil,
                    let status = try? context.status()
                {
                    standardOutput.line(status.line)
                }
            }
            return output.exitCode
        } catch {
            return report(error, program: program, json: context.json)
        }
    }

    /// The context of one invocation: its profile, field types, output style and terminal.
    public static func makeContext(_ parsed: ParsedArguments, environment: [String: String], program: Program)
        -> AppContext
    {
        let profile = Profile.resolve(home: try? parsed[GlobalOptions.home], environment: environment)
        return AppContext(
            profile: profile,
            registry: FieldTypeSetup.registry(profile: profile, environment: environment, program: program),
            style: TerminalStyle.detect(environment: environment, isTerminal: isatty(STDOUT_FILENO) == 1),
            json: parsed[GlobalOptions.json],
            stdinIsTerminal: isatty(STDIN_FILENO) == 1,
            environment: environment)
    }

    /// Prints an error as docs/commands.md says and returns its exit code.
    public static func report(_ error: AppError, program: Program, json: Bool) -> ExitCode {
        // Output that could not be written is reported once, by `ProgramExit`, as it exits.
        if error.code == .outputFailed { return error.exitCode }
        if json {
            var body: [String: JSONValue] = ["code": .string(error.code.rawValue), "message": .string(error.message)]
            if !error.problems.isEmpty { body["problems"] = .array(error.problems.map { .string($0) }) }
            standardOutput.line(JSONValue.object(["error": .object(body)]).canonicalString())
        } else {
            var text = "\(program.name): \(oneLine(error.message))\n"
            for problem in error.problems { text += "  - \(oneLine(problem))\n" }
            OutputChannel.standardError.write(text)
        }
        return error.exitCode
    }
}

/// Where every command's output goes; see `OutputChannel`.
public let standardOutput = OutputChannel.standardOutput

/// `text` as one line a terminal shows as written (`OneLine.escaped`).
/// Errors quote ids and values as their authors wrote them, so every error
/// line passes through this before it is printed.
public func oneLine(_ text: String) -> String {
    OneLine.escaped(text)
}

/// A name, label or other text from outside (the server, a template, a
/// person) as one line of human output (`OneLine.flatten`): line breaks
/// become a space, control characters (a terminal escape sequence's ESC,
/// BEL, CR, BS, NUL) and direction overrides are dropped. Applied to each
/// outside string before it is joined with the program's own words and
/// colours, never to a whole styled line; ids go through `oneLine`.
public func flatLine(_ text: String) -> String {
    OneLine.flatten(text, lineBreak: " ")
}

/// This app's version, sent as `X-JQC-App-Version` and compared with the server's minimum.
public enum AppVersion {
    public static let current = ProductVersion.current
}
