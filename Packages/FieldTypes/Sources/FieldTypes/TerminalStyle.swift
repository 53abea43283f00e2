import Foundation

/// How the terminal that shows answers may be written to.
///
/// Plain terminals (`TERM=dumb`, no UTF-8 locale) get ASCII fallbacks such as
/// `[****-]` for stars; `NO_COLOR` turns colour off.
public struct TerminalStyle: Sendable, Hashable {
    /// ANSI colours are allowed.
    public var color: Bool
    /// Characters beyond ASCII (stars, ticks) are allowed.
    public var unicode: Bool

    /// Makes a style.
    public init(color: Bool, unicode: Bool) {
        self.color = color
        self.unicode = unicode
    }

    /// ASCII only, no colour: pipes, files, `NO_COLOR` on a plain terminal.
    public static let plain = TerminalStyle(color: false, unicode: false)
    /// Colour and Unicode: a modern interactive terminal.
    public static let rich = TerminalStyle(color: true, unicode: true)

    /// The style for an environment: colour only on a terminal without
    /// `NO_COLOR` (any value) and not `TERM=dumb`; Unicode when the locale
    /// (`LC_ALL`, `LC_CTYPE`, `LANG`, first one set) is UTF-8 and `TERM` is not `dumb`.
    public static func detect(environment: [String: String], isTerminal: Bool) -> TerminalStyle {
        let dumb = environment["TERM"] == "dumb"
        let noColor = environment["NO_COLOR"] != nil
        let locale =
            ["LC_ALL", "LC_CTYPE", "LANG"]
            .compactMap { environment[$0] }
            .first { !$0.isEmpty } ?? ""
        let utf8 = locale.lowercased().replacingOccurrences(of: "-", with: "").contains("utf8")
        return TerminalStyle(color: isTerminal && !noColor && !dumb, unicode: utf8 && !dumb)
    }
}

/// The few colours answers are shown in.
public enum Tone: String, Sendable {
    /// A pass.
    case good = "32"
    /// A fail.
    case bad = "31"
    /// The answer itself (stars, values).
    case accent = "33"
    /// Something to look at (an unreadable answer).
    case warning = "35"
    /// Secondary text (no answer, N/A).
    case muted = "2"
}

extension TerminalStyle {
    /// `text` in `tone` when colour is on, unchanged otherwise.
    public func paint(_ text: String, _ tone: Tone) -> String {
        color ? "\u{1B}[\(tone.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// The Unicode form when allowed, else the ASCII one.
    public func pick(_ unicode: String, _ ascii: String) -> String {
        self.unicode ? unicode : ascii
    }
}
