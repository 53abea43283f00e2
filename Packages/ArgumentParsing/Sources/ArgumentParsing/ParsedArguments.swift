/// The result of parsing: positional values and options, read only through
/// their declarations (`try parsed[Self.port]`, `parsed[Self.json]`). What
/// was given is kept by name inside this module; no command reads it so.
public struct ParsedArguments: Sendable, Equatable {
    /// Positional arguments, in order.
    var positionals: [String]
    /// The words of each declared positional argument, by its name, as the parser matched them to the spec.
    var arguments: [String: [String]] = [:]
    /// Every value given per option long name, in order.
    var values: [String: [String]]
    /// Flags that were given.
    var flags: Set<String>

    init(positionals: [String] = [], values: [String: [String]] = [:], flags: Set<String> = []) {
        self.positionals = positionals
        self.values = values
        self.flags = flags
    }
}

extension ParsedArguments {
    /// The option's value: its word converted, or its default (nil, empty) when absent.
    public subscript<Value>(option: Option<Value>) -> Value {
        get throws(UsageError) { try option.read(values[option.spec.long] ?? []) }
    }

    /// True when the flag was given.
    public subscript(flag: Flag) -> Bool { flags.contains(flag.spec.long) }

    /// The argument's value: its word converted (nil or empty for an optional one that is absent).
    public subscript<Value>(argument: Argument<Value>) -> Value {
        get throws(UsageError) { try argument.read(arguments[argument.spec.name] ?? []) }
    }

    /// True when the option was given, whatever its value (checks that come before its conversion).
    public func isGiven<Value>(_ option: Option<Value>) -> Bool { values[option.spec.long] != nil }

    /// True when the argument was given.
    public func isGiven<Value>(_ argument: Argument<Value>) -> Bool { arguments[argument.spec.name] != nil }

    /// Matches the positional words to `spec`'s arguments, in order; a variadic one takes the rest.
    mutating func name(by spec: CommandSpec) {
        arguments = [:]
        guard let last = spec.positionals.last else { return }
        for (index, word) in positionals.enumerated() {
            let argument = index < spec.positionals.count ? spec.positionals[index] : last
            guard index < spec.positionals.count || last.variadic else { break }
            arguments[argument.name, default: []].append(word)
        }
    }
}

/// A command line a program cannot act on; printed on stderr with exit 2.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line: what is wrong, quoting the offending word, and what to do.
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
