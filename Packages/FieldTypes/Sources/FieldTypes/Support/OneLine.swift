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

    /// `text` quoted for a message: `'text'`, one line (line breaks shown as
    /// `lineBreak`), ASCII markers, at most `limit` characters.
    public static func quote(_ text: String, limit: Int = 60, lineBreak: String = "\\n") -> String {
        "'" + cut(flatten(text, lineBreak: lineBreak), limit: limit, ellipsis: "...") + "'"
    }

    /// Line breaks replaced by `lineBreak`, tabs by a space, other control and
    /// direction-override characters removed.
    public static func flatten(_ text: String, lineBreak: String) -> String {
        clean(text, lineBreak: lineBreak)
    }

    /// `text` as one line that shows what was written: tabs become a space,
    /// and line breaks, other control characters (an escape that would start
    /// a terminal sequence) and direction overrides are written out as
    /// `\n`, `\r` or `\u{1B}`, so a person sees the id or value as its
    /// author wrote it and the terminal receives nothing it would act on.
    public static func escaped(_ text: String) -> String {
        clean(text, lineBreak: nil)
    }

    /// What a terminal must not receive as it is.
    private enum Hazard {
        case lineBreak, tab, hidden
    }

    /// The one list of characters that never reach a terminal unchanged.
    private static func hazard(_ scalar: Unicode.Scalar) -> Hazard? {
        switch scalar.value {
        case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: return .lineBreak
        case 0x09: return .tab
        case 0x00...0x1F, 0x7F...0x9F: return .hidden
        case _ where isDirectionControl(scalar): return .hidden
        default: return nil
        }
    }

    /// Whether `scalar` changes the direction of the text after it (the
    /// marks U+200E and U+200F, the embeddings, overrides and isolates
    /// U+202A to U+202E and U+2066 to U+2069): text from outside shows
    /// none, on a terminal or in HTML, so it cannot reorder what is around it.
    public static func isDirectionControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The one walk over the text: with a `lineBreak`, line breaks become it
    /// (CR LF as one) and hidden characters are dropped; without, both are escaped.
    private static func clean(_ text: String, lineBreak: String?) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch (hazard(scalar), lineBreak) {
            case (nil, _):
                out.unicodeScalars.append(scalar)
            case (.tab?, _):
                out += " "
            case (.lineBreak?, let mark?):
                if !(scalar == "\n" && previousWasCR) { out += mark }
            case (.hidden?, _?):
                continue
            case (_, nil):
                switch scalar {
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                default: out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                }
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
