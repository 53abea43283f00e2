import ArgumentParsing

/// One command of a program: what it accepts and what it does.
public struct Command: Sendable {
    /// Names, arguments, options and help.
    public let spec: CommandSpec
    /// Runs the command; throws `AppError` for anything a person must hear about.
    public let run: @Sendable (Invocation) throws(AppError) -> CommandOutput

    public init(_ spec: CommandSpec, run: @escaping @Sendable (Invocation) throws(AppError) -> CommandOutput) {
        self.spec = spec
        self.run = run
    }
}

/// One run of a command: its parsed arguments and the context it runs in.
public struct Invocation {
    public let arguments: ParsedArguments
    public let context: AppContext

    /// A required positional argument (the parser has checked it is there).
    public func positional(_ index: Int) -> String {
        arguments.positional(index) ?? ""
    }

    /// The workspace over the profile's store.
    public func workspace() throws(AppError) -> Workspace {
        try context.workspace()
    }
}

/// The options every command accepts.
public enum GlobalOptions {
    public static let all: [OptionSpec] = [
        .value(
            "home", "DIR",
            help: "profile directory (store, photos, credentials); default $JQC_HOME or $XDG_DATA_HOME/jqc"),
        .flag("json", help: "print one JSON document on stdout"),
        .flag("help", short: "h", help: "show help"),
        .flag("version", help: "print the program's version and the libraries it runs with"),
    ]
}
