/// The result of parsing: positional values and options, looked up by name.
public struct ParsedArguments: Sendable, Equatable {
    /// Positional arguments, in order.
    public var positionals: [String]
    /// Every value given per option long name, in order.
    public var values: [String: [String]]
    /// Flags that were given.
    public var flags: Set<String>

    public init(positionals: [String] = [], values: [String: [String]] = [:], flags: Set<String> = []) {
        self.positionals = positionals
        self.values = values
        self.flags = flags
    }

    /// True when the flag was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for an option, or nil.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for a repeatable option.
    public func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The positional at `index`, or nil.
    public func positional(_ index: Int) -> String? {
        index < positionals.count ? positionals[index] : nil
    }
}

/// A command line a program cannot act on; printed on stderr with exit 2.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line: what is wrong, quoting the offending word, and what to do.
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
