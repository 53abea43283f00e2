/// An option that takes a value, declared once: its name, placeholder, help,
/// and the type its words become. The command's spec lists `spec` (so help,
/// man page and completion show it) and the command reads it back through
/// the declaration, `try arguments[Self.port]`, never by its name.
///
///     static let port = Option("port", "PORT", default: 8080, help: "port to listen on",
///                              as: .whole(in: 0...65535))
public struct Option<Value: Sendable>: Sendable {
    /// What help, the man page, completion and the parser see.
    public private(set) var spec: OptionSpec
    /// The value when the option is absent (nil when there is none).
    private let absent: @Sendable () -> Value
    /// The value of the words given (one, or more for a repeatable option).
    private let given: @Sendable (_ words: [String], _ label: String) throws(UsageError) -> Value

    /// The value of this option in `arguments`: the words given, converted, or the default.
    func read(_ words: [String]) throws(UsageError) -> Value {
        words.isEmpty ? absent() : try given(words, "--\(spec.long)")
    }

    /// The same option, read by the parser but left out of help, the man page
    /// and completion: an older spelling kept for the scripts that use it.
    public func hidden() -> Self {
        var copy = self
        copy.spec.hidden = true
        return copy
    }

    /// An option given at most once; nil when it is absent.
    public init<Wrapped: Sendable>(
        _ long: String, short: Character? = nil, _ valueName: String, values: [String] = [], help: String,
        as conversion: Conversion<Wrapped>
    ) where Value == Wrapped? {
        spec = .value(long, short: short, valueName, values: values, help: help)
        absent = { nil }
        given = { (words, label) throws(UsageError) -> Wrapped? in try conversion(words[words.count - 1], label: label)
        }
    }

    /// An option whose value is the word as given, or nil.
    public init(_ long: String, short: Character? = nil, _ valueName: String, values: [String] = [], help: String)
    where Value == String? {
        self.init(long, short: short, valueName, values: values, help: help, as: .text)
    }

    /// An option given at most once, `defaultValue` when absent. Its help ends
    /// with "(default VALUE)", written from `defaultValue` (and `note`, "30 days",
    /// after a comma), so the help cannot name another default than the code uses.
    public init(
        _ long: String, short: Character? = nil, _ valueName: String, values: [String] = [],
        default defaultValue: Value, note: String? = nil, help: String, as conversion: Conversion<Value>
    ) {
        let shown = [String(describing: defaultValue), note].compactMap { $0 }.joined(separator: ", ")
        spec = .value(long, short: short, valueName, values: values, help: "\(help) (default \(shown))")
        absent = { defaultValue }
        given = { (words, label) throws(UsageError) -> Value in try conversion(words[words.count - 1], label: label) }
    }

    /// A repeatable option (`--pick A --pick B`): every value given, in order; empty when absent.
    public init<Element: Sendable>(
        repeating long: String, short: Character? = nil, _ valueName: String, values: [String] = [], help: String,
        as conversion: Conversion<Element>
    ) where Value == [Element] {
        spec = .value(long, short: short, valueName, repeatable: true, values: values, help: help)
        absent = { [] }
        given = { (words, label) throws(UsageError) -> [Element] in
            var elements: [Element] = []
            for word in words { elements.append(try conversion(word, label: label)) }
            return elements
        }
    }

    /// A repeatable option whose values are the words as given.
    public init(repeating long: String, short: Character? = nil, _ valueName: String, help: String)
    where Value == [String] {
        self.init(repeating: long, short: short, valueName, help: help, as: .text)
    }
}

/// A flag (`--json`), declared once and read back as a `Bool` through the declaration.
public struct Flag: Sendable {
    public let spec: OptionSpec

    public init(_ long: String, short: Character? = nil, help: String) {
        spec = .flag(long, short: short, help: help)
    }

    /// True when one of `words` is the flag as written (`--json`, `-h`), before
    /// they are parsed: for what must be known when parsing fails, such as the
    /// shape a usage error is answered in (`--json`).
    public func isWritten(in words: [String]) -> Bool {
        words.contains("--\(spec.long)") || spec.short.map { words.contains("-\($0)") } == true
    }
}

/// A positional argument, declared once: its name, help, and the type its
/// word (or words, for a variadic one) become; read back through the
/// declaration, `try arguments[Self.shell]`.
public struct Argument<Value: Sendable>: Sendable {
    public let spec: PositionalSpec
    private let convert: @Sendable (_ words: [String]) throws(UsageError) -> Value

    func read(_ words: [String]) throws(UsageError) -> Value { try convert(words) }

    /// A required argument (the parser has checked it is there).
    public init(_ name: String, help: String, values: [String] = [], as conversion: Conversion<Value>) {
        spec = PositionalSpec(name, help: help, values: values)
        convert = { (words) throws(UsageError) -> Value in try conversion(words.first ?? "", label: name) }
    }

    /// A required argument, the word as given.
    public init(_ name: String, help: String, values: [String] = []) where Value == String {
        self.init(name, help: help, values: values, as: .text)
    }

    /// An optional argument; nil when absent.
    public init<Wrapped: Sendable>(
        optional name: String, help: String, values: [String] = [], as conversion: Conversion<Wrapped>
    ) where Value == Wrapped? {
        spec = PositionalSpec(name, help: help, optional: true, values: values)
        convert = { (words) throws(UsageError) -> Wrapped? in
            guard let word = words.first else { return nil }
            return try conversion(word, label: name)
        }
    }

    /// An optional argument, the word as given, or nil.
    public init(optional name: String, help: String, values: [String] = []) where Value == String? {
        self.init(optional: name, help: help, values: values, as: .text)
    }

    /// Every remaining word (`FILE...`); `optional` when there may be none.
    public init(variadic name: String, help: String, optional: Bool = false) where Value == [String] {
        spec = PositionalSpec(name, help: help, optional: optional, variadic: true)
        convert = { (words) throws(UsageError) -> [String] in words }
    }
}
