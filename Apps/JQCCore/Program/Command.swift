import ArgumentParsing

/// One command of a program: what it accepts and what it does.
public struct Command: Sendable {
    /// Names, arguments, options and help.
    public let spec: CommandSpec
    /// Runs the command; throws `AppError` for anything a person must hear about. A
    /// command that reaches the server awaits it; one that does not is synchronous
    /// inside (a synchronous closure is accepted as it is).
    public let run: @Sendable (Invocation) async throws(AppError) -> CommandOutput

    public init(_ spec: CommandSpec, run: @escaping @Sendable (Invocation) async throws(AppError) -> CommandOutput) {
        self.spec = spec
        self.run = run
    }
}

/// One run of a command: its parsed arguments and the context it runs in.
public struct Invocation {
    public let arguments: ParsedArguments
    public let context: AppContext

    /// The option's value, converted (a word that does not convert is a usage error, exit 2), or its default.
    public subscript<Value>(option: Option<Value>) -> Value {
        get throws(AppError) {
            do { return try arguments[option] } catch { throw AppError.usage(error.message) }
        }
    }

    /// True when the flag was given.
    public subscript(flag: Flag) -> Bool { arguments[flag] }

    /// The argument's value, converted (a word that does not convert is a usage error, exit 2).
    public subscript<Value>(argument: Argument<Value>) -> Value {
        get throws(AppError) {
            do { return try arguments[argument] } catch { throw AppError.usage(error.message) }
        }
    }

    /// True when the option was given, whatever its value.
    public func isGiven<Value>(_ option: Option<Value>) -> Bool { arguments.isGiven(option) }

    /// The workspace over the profile's store.
    public func workspace() throws(AppError) -> Workspace {
        try context.workspace()
    }
}

/// The options every command accepts.
public enum GlobalOptions {
    /// The profile directory.
    public static let home = Option(
        "home", "DIR", help: "profile directory (store, photos, credentials); default $JQC_HOME or $XDG_DATA_HOME/jqc")
    /// One JSON document on stdout.
    public static let json = Flag("json", help: "print one JSON document on stdout")
    /// Help instead of running the command.
    public static let help = Flag("help", short: "h", help: "show help")
    /// The version line instead of running the command.
    public static let version = Flag("version", help: "print the program's version and the libraries it runs with")

    public static let all: [OptionSpec] = [home.spec, json.spec, help.spec, version.spec]
}
