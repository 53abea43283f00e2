/// A program's commands seen as a whole: how the words a person typed find
/// a command, a group of commands (`photo` for `photo add`), or the nearest
/// name when they find neither. Every program's dispatch, help, completion
/// scripts and man page read the same catalogue, so none can drift.
public struct CommandCatalog: Sendable {
    /// Every command, in the order help lists them.
    public let commands: [CommandSpec]
    /// Options every command accepts.
    public let globalOptions: [OptionSpec]

    public init(commands: [CommandSpec], globalOptions: [OptionSpec]) {
        self.commands = commands
        self.globalOptions = globalOptions
    }

    /// What the leading words of a command line name.
    public enum Lookup: Equatable, Sendable {
        /// A command, and the arguments left once its name words are removed.
        case command(name: String, rest: [String])
        /// A group typed alone, or with `--help`: its subcommands should be shown.
        case group(String)
        /// A word that names nothing; with the closest name, if one is close.
        case unknownCommand(String, suggestion: String?)
        /// A group (or a command with subcommands) followed by a word that is not one of them.
        case unknownSubcommand(group: String, word: String, suggestion: String?)
        /// No command word at all.
        case none
    }

    /// The command words of `arguments`: words that are not options, skipping the values of valued global options.
    public func commandWordPositions(_ arguments: [String]) -> [Int] {
        let valued = Set(globalOptions.filter { $0.valueName != nil }.map { "--\($0.long)" })
        var positions: [Int] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" { break }
            if valued.contains(word) { index += 2; continue }
            if !word.hasPrefix("-") || word == "-" { positions.append(index) }
            index += 1
        }
        return positions
    }

    /// Finds what `arguments` name. Options may stand before, between or
    /// after the command words; the parser judges them afterwards.
    public func lookup(_ arguments: [String]) -> Lookup {
        let positions = commandWordPositions(arguments)
        guard let first = positions.first else { return .none }
        let words = positions.map { arguments[$0] }
        // Two words first ("photo add"), then one ("status").
        if words.count >= 2, let spec = commands.first(where: { $0.name == "\(words[0]) \(words[1])" }) {
            var rest = arguments
            rest.remove(at: positions[1])
            rest.remove(at: first)
            return .command(name: spec.name, rest: rest)
        }
        let subcommands = self.subcommands(of: words[0])
        if let spec = commands.first(where: { $0.name == words[0] }) {
            // `templates improt x`: a command with subcommands and no arguments of its own, then a stray word.
            if words.count >= 2, !subcommands.isEmpty, spec.positionals.isEmpty {
                return .unknownSubcommand(
                    group: words[0], word: words[1], suggestion: Self.closest(words[1], among: subcommands))
            }
            var rest = arguments
            rest.remove(at: first)
            return .command(name: spec.name, rest: rest)
        }
        if !subcommands.isEmpty {
            if words.count >= 2 {
                return .unknownSubcommand(
                    group: words[0], word: words[1], suggestion: Self.closest(words[1], among: subcommands))
            }
            return .group(words[0])
        }
        let firstWords = Array(Set(commands.map { String($0.name.split(separator: " ")[0]) })).sorted()
        return .unknownCommand(words[0], suggestion: Self.closest(words[0], among: firstWords))
    }

    /// The second words of the commands under `group` ("add" for "photo add").
    public func subcommands(of group: String) -> [String] {
        commands.compactMap { spec in
            let parts = spec.name.split(separator: " ")
            return parts.count == 2 && parts[0] == group ? String(parts[1]) : nil
        }
    }

    /// The commands under `group`, the group's own command (if any) first.
    public func members(of group: String) -> [CommandSpec] {
        commands.filter { $0.name == group || $0.name.hasPrefix(group + " ") }
    }

    /// The command named `name`.
    public func spec(_ name: String) -> CommandSpec? { commands.first { $0.name == name } }

    /// The name among `names` nearest to `word`, when it is near enough to be a slip of the keyboard.
    public static func closest(_ word: String, among names: [String]) -> String? {
        let scored = names.map { ($0, editDistance($0, word)) }.sorted { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
        guard let best = scored.first else { return nil }
        let allowed = max(1, min(2, word.count / 3))
        if best.1 <= allowed { return best.0 }
        // A prefix typed too short ("sta" for "status") is a suggestion too, when it names one command.
        let prefixed = names.filter { $0.hasPrefix(word) }
        return word.count >= 2 && prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Edit distance with adjacent transpositions ("statsu" is one step from "status").
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = Swift.min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = Swift.min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
