/// Text made safe for HTML: the one escaping every page of the product uses
/// (the device's HTML export and the server's console), so text from a
/// template, an answer or a person is never markup.
public enum HTMLText {
    /// `text` as element content or a double- or single-quoted attribute
    /// value: `& < > " '` become entities, and control characters other than
    /// tab, line feed and carriage return (invalid in an HTML document) become U+FFFD;
    /// direction controls are dropped, as on the terminal (`OneLine.isDirectionControl`).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{7F}": out += "\u{FFFD}"
            case _ where OneLine.isDirectionControl(scalar): continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
