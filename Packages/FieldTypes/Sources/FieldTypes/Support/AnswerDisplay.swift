import Foundation
import Models

/// The shared pieces of every type's one-line display, for built-in types
/// and types written elsewhere alike, so every field reads the same.
public enum AnswerDisplay {
    /// An unanswered field.
    public static func noAnswer(_ style: TerminalStyle) -> String {
        style.paint("(no answer)", .muted)
    }

    /// A scoreable field answered "N/A".
    public static func notApplicable(_ style: TerminalStyle) -> String {
        style.paint("N/A", .muted)
    }

    /// An answer the type cannot read, shown as its JSON so nothing is hidden.
    public static func unreadable(_ answer: JSONValue, _ style: TerminalStyle) -> String {
        let json = OneLine.display(answer.canonicalString(), style: style, limit: 80)
        return style.paint("(unreadable answer: \(json))", .warning)
    }

    /// A user-provided string as one display line, or the no-answer marker when blank.
    public static func text(_ text: String, _ style: TerminalStyle) -> String {
        let line = OneLine.display(text, style: style).trimmingCharacters(in: .whitespaces)
        return line.isEmpty ? noAnswer(style) : line
    }
}
