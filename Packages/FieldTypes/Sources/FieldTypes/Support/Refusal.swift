import Foundation
import Models

/// The wording shared by validation and parse errors, so every type (built in
/// or not) speaks alike.
public enum Refusal {
    /// "must be <expected>, not a number: 42".
    public static func wrongKind(_ answer: JSONValue, expected: String) -> String {
        "must be \(expected), not \(describe(answer))"
    }

    /// A JSON value named by kind and shown, for messages: `a number: 42`.
    public static func describe(_ answer: JSONValue) -> String {
        let json = OneLine.cut(OneLine.flatten(answer.canonicalString(), lineBreak: "\\n"), limit: 60, ellipsis: "...")
        switch answer {
        case .null: return "null"
        default: return "\(answer.kindDescription): \(json)"
        }
    }

    /// The error for typed input that is blank.
    public static func blankInput(_ input: String, expected: String) -> AnswerInputError {
        AnswerInputError(
            input: input,
            message: "nothing was typed (\(OneLine.quote(input))); type \(expected), or use --clear to unset the answer"
        )
    }

    /// Typed input trimmed of surrounding whitespace and line breaks.
    public static func trimmed(_ input: String) -> String {
        input.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension FieldDefinition {
    /// `field 'q1' (Floors clean)` or `field 'q1'`, for messages.
    public var messageName: String {
        let label = OneLine.cut(OneLine.flatten(label, lineBreak: " "), limit: 60, ellipsis: "...")
        let id = OneLine.quote(id.rawValue)
        return label.trimmingCharacters(in: .whitespaces).isEmpty ? "field \(id)" : "field \(id) (\(label))"
    }
}
