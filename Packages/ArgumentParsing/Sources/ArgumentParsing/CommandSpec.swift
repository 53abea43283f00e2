/// What a command accepts: its options and positional arguments, with the
/// help text generated from the same description so the two never disagree.
public struct CommandSpec: Sendable {
    /// The words that name the command after the program ("photo add").
    public var name: String
    /// One line saying what the command does.
    public var summary: String
    /// Positional arguments in order.
    public var positionals: [PositionalSpec]
    /// Options this command takes besides the global ones.
    public var options: [OptionSpec]
    /// Extra lines shown under the usage (examples, notes).
    public var discussion: String?

    public init(_ name: String, summary: String, positionals: [PositionalSpec] = [], options: [OptionSpec] = [],
                discussion: String? = nil) {
        self.name = name
        self.summary = summary
        self.positionals = positionals
        self.options = options
        self.discussion = discussion
    }
}

/// A positional argument.
public struct PositionalSpec: Sendable {
    public var name: String
    public var help: String
    public var optional: Bool
    /// Takes every remaining argument (`FILE...`).
    public var variadic: Bool

    public init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false) {
        self.name = name
        self.help = help
        self.optional = optional
        self.variadic = variadic
    }

    var usageText: String {
        let core = variadic ? "\(name)..." : name
        return optional ? "[\(core)]" : core
    }
}

/// An option: a flag (`--json`) or an option with a value (`--home DIR`).
public struct OptionSpec: Sendable {
    /// The long name without dashes ("home").
    public var long: String
    /// The one-letter name, if any ("o" for `-o`).
    public var short: Character?
    /// The value's placeholder ("DIR"); nil for a flag.
    public var valueName: String?
    /// May be given more than once (`--pick A --pick B`).
    public var repeatable: Bool
    public var help: String

    /// A flag that takes no value.
    public static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: nil, repeatable: false, help: help)
    }

    /// An option that takes a value.
    public static func value(_ long: String, short: Character? = nil, _ valueName: String, repeatable: Bool = false,
                             help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: valueName, repeatable: repeatable, help: help)
    }

    var takesValue: Bool { valueName != nil }

    var usageText: String {
        var text = "--\(long)"
        if let short { text = "-\(short), " + text }
        if let valueName { text += " \(valueName)" }
        return text
    }
}
