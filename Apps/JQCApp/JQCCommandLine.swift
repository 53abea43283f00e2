import ArgumentParsing
import FieldTypes
import Foundation
import Models
import Networking
import ProgramOutput
import SiteFieldTypes
import Storage
import SQLite

/// The entry point both executables share: finds the command, parses its
/// arguments, runs it, prints, and returns the exit code of CLI.md.
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

        var summary: String {
            switch self {
            case .jqc: return "JanitorialQC: run facility inspections offline, attach photos, flag issues, sync when you can."
            case .agent: return "JanitorialQC sync agent: uploads this device's completed work, for cron or a systemd timer."
            }
        }
    }

    /// The commands of a program.
    public static func commands(for program: Program) -> [Command] {
        switch program {
        case .jqc:
            return ReportCommands.all + [RunCommand.run] + ReferenceCommands.all + StatusCommands.all
                + PhotoIssueCommands.all + [ExportCommand.export] + AccountCommands.all + SyncCommands.all
                + ConflictCommands.all + HistoryCommands.all
        case .agent:
            return [AgentCommands.run, StatusCommands.status]
        }
    }

    /// Runs one invocation and returns its exit code. Output that could not
    /// be written decides the code last: quietly 141 when the reader closed
    /// the pipe (`jqc list | head -1`), 1 with the cause on stderr otherwise.
    public static func run(program: Program, arguments: [String],
                           environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        ProgramExit.ignoreBrokenPipes()
        let code = dispatch(program: program, arguments: arguments, environment: environment)
        return ProgramExit.code(code, program: program.name)
    }

    /// Finds, parses and runs the command; prints its output or its error.
    static func dispatch(program: Program, arguments: [String], environment: [String: String]) -> Int32 {
        let commands = commands(for: program)
        let wantsJSON = arguments.contains("--json")
        if arguments.first == "--version" || arguments.first == "version" {
            standardOutput.line("\(program.name) \(AppVersion.current) (SQLite \(SQLiteInfo.version), libcurl \(Libcurl.version))")
            return ExitCode.ok
        }
        guard let (command, rest) = find(arguments, in: commands) else {
            let words = commandWords(arguments)
            if words.isEmpty {
                if program == .jqc, !wantsJSON, isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1,
                   !arguments.contains("--help"), !arguments.contains("-h") {
                    return openHomeMenu(arguments: arguments, environment: environment)
                }
                standardOutput.line(HelpFormatter.overview(program: program.name, summary: program.summary,
                                             commands: commands.map(\.spec), globalOptions: GlobalOptions.all))
                return ExitCode.ok
            }
            return report(AppError.usage("unknown command '\(words[0])'. Run '\(program.name) --help' for the list of commands."),
                          program: program, json: wantsJSON)
        }
        let parser = ArgumentParser(globalOptions: GlobalOptions.all)
        let parsed: ParsedArguments
        do {
            parsed = try parser.parse(rest, for: command.spec)
        } catch {
            return report(AppError.usage(error.message), program: program, json: wantsJSON)
        }
        if parsed.flag("help") {
            standardOutput.line(HelpFormatter.help(command.spec, program: program.name, globalOptions: GlobalOptions.all))
            return ExitCode.ok
        }
        let context = makeContext(parsed, environment: environment)
        do {
            let output = try command.run(Invocation(arguments: parsed, context: context))
            if context.json {
                // A command that wrote its own output (the agent's log, the runner) returns JSON null.
                if !output.json.isNull { standardOutput.line(output.json.canonicalString()) }
            } else {
                for line in output.lines {
                    guard standardOutput.line(line) else { break }
                }
                if output.showsStatusLine, standardOutput.failure == nil, let status = try? context.workspace().status() {
                    standardOutput.line(status.line)
                }
            }
            return output.exitCode
        } catch {
            return report(error, program: program, json: context.json)
        }
    }

    /// The context of one invocation: its profile, field types, output style and terminal.
    static func makeContext(_ parsed: ParsedArguments, environment: [String: String]) -> AppContext {
        AppContext(
            profile: Profile.resolve(home: parsed.value("home"), environment: environment),
            registry: FieldTypeRegistry.builtIn().addingSiteFieldTypes(),
            style: TerminalStyle.detect(environment: environment, isTerminal: isatty(STDOUT_FILENO) == 1),
            json: parsed.flag("json"),
            stdinIsTerminal: isatty(STDIN_FILENO) == 1,
            environment: environment)
    }

    /// The words of the command line that are neither options nor the values of global options.
    static func commandWords(_ arguments: [String]) -> [String] {
        let valued = Set(GlobalOptions.all.filter { $0.valueName != nil }.map { "--\($0.long)" })
        var words: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if valued.contains(word) { index += 2; continue }
            if !word.hasPrefix("-") { words.append(word) }
            index += 1
        }
        return words
    }

    /// `jqc` with no command on a terminal: the home menu on standard input and output.
    static func openHomeMenu(arguments: [String], environment: [String: String]) -> Int32 {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser(globalOptions: GlobalOptions.all).parse(arguments, for: CommandSpec("", summary: ""))
        } catch {
            return report(AppError.usage(error.message), program: .jqc, json: false)
        }
        let clears = environment["TERM"] != "dumb"
        let io = MenuIO(
            // A menu whose screen is gone has nobody to answer it: it reads no further.
            readLine: { standardOutput.failure == nil ? Swift.readLine(strippingNewline: true) : nil },
            write: { standardOutput.line($0) },
            prompt: { standardOutput.write($0) },
            clear: { if clears { standardOutput.write("\u{1B}[H\u{1B}[2J") } })
        do {
            return try HomeMenu(context: makeContext(parsed, environment: environment), io: io).run()
        } catch {
            return report(error, program: .jqc, json: false)
        }
    }

    /// Finds the command named by the first one or two words that are not options.
    static func find(_ arguments: [String], in commands: [Command]) -> (Command, [String])? {
        var wordPositions: [Int] = []
        var index = 0
        let valued = Set(GlobalOptions.all.filter { $0.valueName != nil }.map { "--\($0.long)" })
        while index < arguments.count, wordPositions.count < 2 {
            let word = arguments[index]
            if valued.contains(word) { index += 2; continue }
            if word.hasPrefix("-") { break }
            wordPositions.append(index)
            index += 1
        }
        for count in stride(from: wordPositions.count, through: 1, by: -1) {
            let positions = Array(wordPositions.prefix(count))
            guard positions.last.map({ $0 - positions[0] == count - 1 }) ?? false else { continue }
            let name = positions.map { arguments[$0] }.joined(separator: " ")
            if let command = commands.first(where: { $0.spec.name == name }) {
                var rest = arguments
                for position in positions.reversed() { rest.remove(at: position) }
                return (command, rest)
            }
        }
        return nil
    }

    /// Prints an error as CLI.md asks and returns its exit code.
    static func report(_ error: AppError, program: Program, json: Bool) -> Int32 {
        // Output that could not be written is reported once, by `ProgramExit`, as it exits.
        if error.code == AppError.outputFailedCode { return error.exitCode }
        if json {
            var body: [String: JSONValue] = ["code": .string(error.code), "message": .string(error.message)]
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
let standardOutput = OutputChannel.standardOutput

/// `text` as one line a terminal shows as written: line breaks and other
/// control characters (including an escape that would start a terminal
/// sequence) from a file, a server or a person are shown as `\n` or `\u{1B}`.
/// Errors quote ids and values as their authors wrote them, so every error
/// line passes through this before it is printed.
func oneLine(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += " "
        case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029:
            out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// This app's version, sent as `X-JQC-App-Version` and compared with the server's minimum.
public enum AppVersion {
    public static let current = "0.1.0"
}
