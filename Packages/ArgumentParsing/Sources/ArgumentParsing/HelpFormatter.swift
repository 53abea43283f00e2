/// Writes help text from command specs.
public enum HelpFormatter {
    /// "jqc answer LOCAL_ID FIELD_ID VALUE [options]".
    public static func usageLine(_ spec: CommandSpec, program: String?) -> String {
        var parts: [String] = []
        if let program { parts.append(program) }
        parts.append(spec.name)
        parts += spec.positionals.map(\.usageText)
        if !spec.shownOptions.isEmpty { parts.append("[options]") }
        return parts.joined(separator: " ")
    }

    /// The whole help of one command.
    public static func help(_ spec: CommandSpec, program: String, globalOptions: [OptionSpec]) -> String {
        var lines = ["Usage: \(usageLine(spec, program: program))", "", spec.summary]
        if !spec.positionals.isEmpty {
            lines += ["", "Arguments:"]
            lines += table(spec.positionals.map { ($0.usageText, $0.helpText) })
        }
        if !spec.shownOptions.isEmpty {
            lines += ["", "Options:"]
            lines += table(spec.shownOptions.map { ($0.usageText, $0.helpText) })
        }
        lines += ["", "Global options:"]
        lines += table(globalOptions.map { ($0.usageText, $0.helpText) })
        if let discussion = spec.discussion { lines += ["", discussion] }
        return lines.joined(separator: "\n")
    }

    /// The program's overview: every command with its summary.
    public static func overview(program: String, summary: String, commands: [CommandSpec], globalOptions: [OptionSpec])
        -> String
    {
        var lines = ["Usage: \(program) <command> [arguments] [options]", "", summary, "", "Commands:"]
        lines += table(commands.map { ($0.name, $0.summary) })
        lines += ["", "Global options:"]
        lines += table(globalOptions.map { ($0.usageText, $0.helpText) })
        lines += [
            "",
            "Run '\(program) help <command>' or '\(program) <command> --help' for a command's arguments and options.",
        ]
        return lines.joined(separator: "\n")
    }

    /// A group's help (`jqc photo`): its commands with their summaries.
    public static func group(_ group: String, program: String, catalog: CommandCatalog) -> String {
        let members = catalog.members(of: group)
        var lines = ["Usage: \(program) \(group) <command> [arguments] [options]", "", "Commands:"]
        lines += table(members.map { ($0.name, $0.summary) })
        lines += [
            "", "Run '\(program) help \(group) <command>' or '\(program) \(group) <command> --help' for one command.",
        ]
        return lines.joined(separator: "\n")
    }

    static func table(_ rows: [(String, String)]) -> [String] {
        let width = min(max(rows.map(\.0.count).max() ?? 0, 8), 28)
        return rows.map { left, right in
            let padded =
                left.count >= width ? left + "  " : left + String(repeating: " ", count: width - left.count + 2)
            return "  " + padded + right
        }
    }
}
