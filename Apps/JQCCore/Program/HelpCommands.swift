import ArgumentParsing
import Models

/// `help`, `completion` and the man page: each written from the program's
/// command catalogue, the same specs the parser reads, so none can drift.
public enum HelpCommands {
    /// Help text as output: the text for a person, `{"help": text}` for `--json`.
    private static func text(_ text: String) -> CommandOutput {
        CommandOutput(lines: [text], json: .object(["help": .string(text)]), showsStatusLine: false)
    }

    /// `help`'s words: the command or group to describe.
    private static let words = Argument(
        variadic: "COMMAND", help: "a command or group, e.g. 'photo add'", optional: true)
    /// `help --man`.
    private static let man = Flag("man", help: "print the program's man page (roff) instead")
    /// `completion`'s shell.
    private static let shell = Argument("SHELL", help: "the shell", values: CompletionScript.shells)

    /// `help [COMMAND...]` of `program` (`--man`: its man page).
    public static func help(_ program: Program) -> Command {
        Command(
            CommandSpec(
                "help", summary: "show the help of a command, a group of commands, or the program",
                positionals: [Self.words.spec], options: [Self.man.spec])
        ) { invocation throws(AppError) in
            let catalog = program.catalog
            if invocation[Self.man] {
                return text(program.manPage)
            }
            let words = try invocation[Self.words]
            guard !words.isEmpty else {
                return text(
                    HelpFormatter.overview(
                        program: program.name, summary: program.summary, commands: catalog.commands,
                        globalOptions: catalog.globalOptions))
            }
            switch catalog.lookup(words) {
            case .command(let name, let rest) where rest.isEmpty:
                guard let spec = catalog.spec(name) else { throw AppError.usage("no command '\(name)'") }
                return text(HelpFormatter.help(spec, program: program.name, globalOptions: catalog.globalOptions))
            case .group(let group):
                return CommandOutput(
                    lines: [HelpFormatter.group(group, program: program.name, catalog: catalog)], json: .null,
                    showsStatusLine: false)
            default:
                throw ProgramRunner.lookupError(catalog.lookup(words), program: program, catalog: catalog)
                    ?? AppError.usage(
                        "no command '\(words.joined(separator: " "))'. Run '\(program.name) help' for the list.")
            }
        }
    }

    /// `completion SHELL` of `program`.
    public static func completion(_ program: Program) -> Command {
        Command(
            CommandSpec(
                "completion", summary: "print a shell completion script (bash, zsh or fish)",
                positionals: [Self.shell.spec],
                discussion:
                    "Example: \(program.name) completion bash > ~/.local/share/bash-completion/completions/\(program.name)"
            )
        ) {
            invocation throws(AppError) in
            let shell = try invocation[Self.shell]
            guard let script = CompletionScript.script(for: shell, program: program.name, catalog: program.catalog)
            else {
                throw AppError.usage("no completion for the shell '\(shell)'; choose bash, zsh or fish.")
            }
            return CommandOutput(lines: [script], json: .object(["script": .string(script)]), showsStatusLine: false)
        }
    }
}
