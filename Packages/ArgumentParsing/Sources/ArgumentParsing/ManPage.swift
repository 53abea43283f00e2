/// A man page (roff, section 1) written from a program's command catalogue:
/// the same commands, arguments and options as its help.
public enum ManPage {
    /// Sections after the commands: a title and its paragraphs.
    public typealias Section = (title: String, paragraphs: [String])

    /// The page of `program`; `date` (YYYY-MM-DD, the version's) goes in the
    /// title line, which `man` shows at the foot of every page.
    public static func roff(
        program: String, summary: String, version: String, date: String, catalog: CommandCatalog,
        sections: [Section] = []
    ) -> String {
        var lines = [
            ".TH \(program.uppercased()) 1 \"\(escape(date))\" \"\(escape(program)) \(escape(version))\" \"User Commands\"",
            ".SH NAME",
            "\(escape(program)) \\- \(escape(summary))",
            ".SH SYNOPSIS",
            ".B \(escape(program))",
            "\\fICOMMAND\\fR [\\fIARGUMENTS\\fR] [\\fIOPTIONS\\fR]",
            ".SH GLOBAL OPTIONS",
        ]
        for option in catalog.globalOptions { lines += item(option) }
        lines.append(".SH COMMANDS")
        for spec in catalog.commands {
            lines.append(".SS \(escape(HelpFormatter.usageLine(spec, program: nil)))")
            lines.append(escape(spec.summary))
            for positional in spec.positionals {
                lines += [".TP", "\\fI\(escape(positional.usageText))\\fR", escape(positional.helpText)]
            }
            for option in spec.shownOptions { lines += item(option) }
            if let discussion = spec.discussion {
                lines += [".PP"] + text(discussion)
            }
        }
        for section in sections {
            lines.append(".SH \(escape(section.title.uppercased()))")
            for paragraph in section.paragraphs { lines += [".PP"] + text(paragraph) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func item(_ option: OptionSpec) -> [String] {
        var head = "\\fB\\-\\-\(escape(option.long))\\fR"
        if let short = option.short { head = "\\fB\\-\(short)\\fR, " + head }
        if let value = option.valueName { head += " \\fI\(escape(value))\\fR" }
        return [".TP", head, escape(option.helpText)]
    }

    /// Text written for a terminal, kept as it reads there: each line on a
    /// line of its own, and indented lines (examples) as they are, unfilled,
    /// indented, so no two commands ever run together.
    static func text(_ text: String) -> [String] {
        var out: [String] = []
        var example: [Substring] = []
        func flush() {
            guard !example.isEmpty else { return }
            let indent = example.map { $0.prefix { $0 == " " }.count }.min() ?? 0
            out += [".RS 4", ".nf"] + example.map { escape(String($0.dropFirst(indent))) } + [".fi", ".RE"]
            example = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.first == " " || line.first == "\t" {
                example.append(line)
                continue
            }
            flush()
            if line.allSatisfy(\.isWhitespace) {
                out.append(".sp")
            } else {
                if let last = out.last, !last.hasPrefix(".") { out.append(".br") }
                out.append(escape(String(line)))
            }
        }
        flush()
        return out
    }

    /// Text safe in roff: backslashes doubled, dashes as minus signs, no line starting with a control character.
    static func escape(_ text: String) -> String {
        var out = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
            .replacing("\n", with: " ")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
