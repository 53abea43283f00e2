import ArgumentParsing
import Foundation
import Models

/// One of the programs built on the core (`jqc`, `jqc-agent`): its name, what
/// it is for, its commands, how it says a warning, and what it does when run
/// with no command on a terminal. Each program's module makes its own; the
/// core runs any of them the same way (`ProgramRunner`).
public struct Program: Sendable {
    /// The executable's name, as in usage lines and error prefixes.
    public let name: String
    /// One line saying what the program is for (help, man page).
    public let summary: String
    /// Makes every command of the program, `help` and `completion` included
    /// (given the program, which those two describe).
    private let makeCommands: @Sendable (Program) -> [Command]
    /// How the program says a warning that is not a command's output (an
    /// external field type that cannot be used): a line on stderr, a log event.
    public let warn: @Sendable (String) -> Void
    /// What the program does when given no command while a person is at a
    /// terminal (`jqc`: the home menu); nil prints the command overview.
    public let atTerminalWithoutCommand:
        (@Sendable (_ arguments: [String], _ environment: [String: String]) async -> ExitCode)?

    /// Makes a program.
    public init(
        name: String, summary: String, commands: @escaping @Sendable (Program) -> [Command],
        warn: @escaping @Sendable (String) -> Void,
        atTerminalWithoutCommand: (
            @Sendable (_ arguments: [String], _ environment: [String: String]) async -> ExitCode
        )? =
            nil
    ) {
        self.name = name
        self.summary = summary
        self.makeCommands = commands
        self.warn = warn
        self.atTerminalWithoutCommand = atTerminalWithoutCommand
    }

    /// Every command of the program.
    public var commands: [Command] { makeCommands(self) }

    /// The program's commands as the parser, help, completion and man page read them.
    public var catalog: CommandCatalog {
        CommandCatalog(commands: commands.map(\.spec), globalOptions: GlobalOptions.all)
    }

    /// The program's man page, in roff.
    public var manPage: String {
        ManPage.roff(
            program: name, summary: summary, version: AppVersion.current, date: ProductVersion.date, catalog: catalog,
            sections: [
                (
                    "Exit status",
                    [
                        [
                            "0 ok", "1 failure", "2 usage error", "3 not found", "4 validation failed",
                            "5 blocked by a rule", "6 sign-in required", "7 a conflict needs a person",
                            "73 another agent holds the lock",
                            "75 temporary failure (offline, server unavailable): try later",
                            "141 the reader closed the output before all of it was written (a closed pipe, as in '| head'); "
                                + "output that fits in the pipe before the reader leaves ends with the command's own status",
                        ]
                        .joined(separator: "\n")
                    ]
                ),
                (
                    "Environment",
                    [
                        "JQC_HOME: the profile directory when --home is not given. "
                            + "XDG_DATA_HOME and XDG_CONFIG_HOME: where the profile and credentials live by default. "
                            + "JQC_FIELD_TYPES_PATH: colon-separated folders searched for external field types (jqc-field-NAME) "
                            + "before the profile's field-types folder. "
                            + "JQC_FIELD_TYPE_TIMEOUT: seconds an external field type has for each answer (default 2). "
                            + "NO_COLOR: plain output."
                    ]
                ),
            ])
    }
}
