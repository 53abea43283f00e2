import Foundation
import Models

/// What `text`, `email` and `textarea` share: a string answer, typed as is.
enum TextAnswer {
    static func validate(_ answer: JSONValue, typeName: String) -> String? {
        if case .string = answer { return nil }
        return "a \(typeName) answer " + Refusal.wrongKind(answer, expected: "a string")
    }

    static func parse(_ input: String, expected: String) throws(AnswerInputError) -> String {
        let text = Refusal.trimmed(input)
        guard !text.isEmpty else { throw Refusal.blankInput(input, expected: expected) }
        return text
    }

    static func display(_ answer: JSONValue?, style: TerminalStyle) -> String {
        switch answer {
        case nil: return AnswerDisplay.noAnswer(style)
        case .string(let s)?: return AnswerDisplay.text(s, style)
        case let other?: return AnswerDisplay.unreadable(other, style)
        }
    }
}
