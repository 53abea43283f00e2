/// Parses one command's arguments against its spec and the program's global options.
///
/// Accepts `--name value`, `--name=value`, `-x value`, flags anywhere, and `--`
/// to end options (so a value may start with a dash). Every error names the
/// offending word and says what would work.
public struct ArgumentParser: Sendable {
    /// Options every command of the program accepts (`--home`, `--json`, `--help`).
    public var globalOptions: [OptionSpec]
    /// The program's name, for the help a message points at ("jqc status --help").
    public var program: String?

    public init(globalOptions: [OptionSpec], program: String? = nil) {
        self.globalOptions = globalOptions
        self.program = program
    }

    /// Parses `arguments` (the words after the command name) for `spec`.
    public func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        let options = globalOptions + spec.options
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        func find(long: String) -> OptionSpec? { options.first { $0.long == long } }
        func find(short: Character) -> OptionSpec? { options.first { $0.short == short } }
        func record(_ option: OptionSpec, value: String?) throws(UsageError) {
            if let value {
                if !option.repeatable, result.values[option.long] != nil {
                    throw UsageError("'--\(option.long)' was given twice; give it once.")
                }
                result.values[option.long, default: []].append(value)
            } else {
                result.flags.insert(option.long)
            }
        }
        func takeValue(for option: OptionSpec, written: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else {
                throw UsageError("'\(written)' needs a value (\(option.valueName ?? "VALUE")).")
            }
            return arguments[index]
        }

        while index < arguments.count {
            let word = arguments[index]
            if optionsEnded || word == "-" || !word.hasPrefix("-") || isNumber(word) {
                result.positionals.append(word)
            } else if word == "--" {
                optionsEnded = true
            } else if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let (name, inline): (String, String?) = {
                    if let eq = body.firstIndex(of: "=") {
                        return (String(body[..<eq]), String(body[body.index(after: eq)...]))
                    }
                    return (String(body), nil)
                }()
                guard let option = find(long: name) else {
                    throw UsageError(unknownOption("--\(name)", options: options, command: spec.name))
                }
                if option.takesValue {
                    if let inline {
                        try record(option, value: inline)
                    } else {
                        try record(option, value: takeValue(for: option, written: word))
                    }
                } else {
                    if inline != nil { throw UsageError("'--\(name)' takes no value.") }
                    try record(option, value: nil)
                }
            } else {
                let letters = Array(word.dropFirst())
                for (position, letter) in letters.enumerated() {
                    guard let option = find(short: letter) else {
                        throw UsageError(unknownOption("-\(letter)", options: options, command: spec.name))
                    }
                    if option.takesValue {
                        let rest = String(letters[(position + 1)...])
                        if rest.isEmpty {
                            try record(option, value: takeValue(for: option, written: "-\(letter)"))
                        } else {
                            try record(option, value: rest)
                        }
                        break
                    }
                    try record(option, value: nil)
                }
            }
            index += 1
        }
        result.name(by: spec)
        if result.flags.contains("help") { return result }
        try checkPositionals(result.positionals, spec: spec)
        return result
    }

    private func checkPositionals(_ given: [String], spec: CommandSpec) throws(UsageError) {
        let required = spec.positionals.filter { !$0.optional }
        if given.count < required.count {
            let missing = required[given.count]
            throw UsageError(
                "'\(spec.name)' needs \(missing.name) (\(missing.help)). Usage: \(HelpFormatter.usageLine(spec, program: nil))"
            )
        }
        let variadic = spec.positionals.contains { $0.variadic }
        if !variadic, given.count > spec.positionals.count {
            let extra = given[spec.positionals.count]
            throw UsageError(
                "'\(spec.name)' does not take '\(extra)'. Usage: \(HelpFormatter.usageLine(spec, program: nil))")
        }
    }

    /// A negative number is a value, not an option (`answer R 3 -2`).
    private func isNumber(_ word: String) -> Bool {
        word.count > 1 && Double(word) != nil
    }

    private func unknownOption(_ written: String, options: [OptionSpec], command: String) -> String {
        let name = written.trimmingPrefix(while: { $0 == "-" })
        let close = options.map(\.long).min { distance($0, name) < distance($1, name) }
        if let close, distance(close, name) <= 2 {
            return "'\(command)' has no option '\(written)'; did you mean '--\(close)'?"
        }
        let helpCommand = [program, command].compactMap { $0 }.filter { !$0.isEmpty }
        var unique: [String] = []
        for word in helpCommand where !unique.contains(word) { unique.append(word) }
        return "'\(command)' has no option '\(written)'. See '\(unique.joined(separator: " ")) --help'."
    }

    /// Edit distance between two short words, for "did you mean" suggestions.
    func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

extension String {
    fileprivate func trimmingPrefix(while predicate: (Character) -> Bool) -> String {
        String(drop(while: predicate))
    }
}
