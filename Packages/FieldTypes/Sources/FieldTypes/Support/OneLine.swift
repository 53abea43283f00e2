import Foundation

/// Turning text from templates, answers and typed input into safe single lines.
///
/// Everything shown in a terminal passes through here: line breaks become a
/// visible marker, control characters (terminal escape sequences from a
/// hostile template included) and bidirectional overrides are dropped, and
/// long text is cut with an ellipsis.
public enum OneLine {
    /// The longest answer display, in characters, before it is cut.
    static let displayLimit = 200

    /// `text` as one line for the terminal.
    static func display(_ text: String, style: TerminalStyle, limit: Int = displayLimit) -> String {
        let breakMark = style.pick(" \u{23CE} ", " / ")
        return cut(flatten(text, lineBreak: breakMark), limit: limit, ellipsis: style.pick("\u{2026}", "..."))
    }

    /// `text` quoted for a message: `'text'`, one line, ASCII markers, at most `limit` characters.
    public static func quote(_ text: String, limit: Int = 60) -> String {
        "'" + cut(flatten(text, lineBreak: "\\n"), limit: limit, ellipsis: "...") + "'"
    }

    /// Line breaks replaced by `lineBreak`, tabs by a space, other control and
    /// direction-override characters removed.
    public static func flatten(_ text: String, lineBreak: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar.value {
            case 0x0A where previousWasCR:
                continue
            case 0x0A, 0x0D, 0x85, 0x2028, 0x2029:
                out += lineBreak
            case 0x09:
                out += " "
            case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                continue
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// At most `limit` characters, ending in `ellipsis` when something was cut.
    public static func cut(_ text: String, limit: Int, ellipsis: String) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(max(limit - ellipsis.count, 1))) + ellipsis
    }
}
