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

    public init(
        _ name: String, summary: String, positionals: [PositionalSpec] = [], options: [OptionSpec] = [],
        discussion: String? = nil
    ) {
        self.name = name
        self.summary = summary
        self.positionals = positionals
        self.options = options
        self.discussion = discussion
    }

    /// The options help, the man page and completion show: every one not hidden.
    public var shownOptions: [OptionSpec] { options.filter { !$0.hidden } }
}

/// A positional argument.
public struct PositionalSpec: Sendable {
    public var name: String
    public var help: String
    public var optional: Bool
    /// Takes every remaining argument (`FILE...`).
    public var variadic: Bool
    /// The words it may be, when they are a fixed set (`bash`, `zsh`, `fish`);
    /// empty for any word. Completion offers them and help lists them.
    public var values: [String]

    public init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false, values: [String] = []) {
        self.name = name
        self.help = help
        self.optional = optional
        self.variadic = variadic
        self.values = values
    }

    /// The help, followed by the values when they are a fixed set.
    public var helpText: String { OptionSpec.listing(help, values) }

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
    /// The values it takes, when they are a fixed set (`json`, `csv`, `html`);
    /// empty for any value. Completion offers them, help and the man page list them.
    public var values: [String] = []
    /// Read by the parser but left out of help, the man page and completion:
    /// an older spelling kept working for the scripts that use it.
    public var hidden = false

    /// A flag that takes no value.
    public static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: nil, repeatable: false, help: help)
    }

    /// An option that takes a value, one of `values` when they are given.
    public static func value(
        _ long: String, short: Character? = nil, _ valueName: String, repeatable: Bool = false,
        values: [String] = [], help: String
    ) -> OptionSpec {
        OptionSpec(long: long, short: short, valueName: valueName, repeatable: repeatable, help: help, values: values)
    }

    var takesValue: Bool { valueName != nil }

    /// The help, followed by the values when they are a fixed set.
    public var helpText: String { Self.listing(help, values) }

    /// "the format (json, csv or html)": `help` with `values` after it.
    static func listing(_ help: String, _ values: [String]) -> String {
        guard let last = values.last else { return help }
        let words = values.count == 1 ? last : values.dropLast().joined(separator: ", ") + " or " + last
        return "\(help): \(words)"
    }

    var usageText: String {
        var text = "--\(long)"
        if let short { text = "-\(short), " + text }
        if let valueName { text += " \(valueName)" }
        return text
    }
}
