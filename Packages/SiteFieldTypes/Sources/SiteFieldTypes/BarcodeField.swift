import Foundation
import FieldTypes
import Models

/// `barcode`: the text of a scanned code (an asset tag, a dispenser's serial),
/// stored as a string exactly as scanned, surrounding spaces removed. A
/// definition may give `pattern`, a regular expression (NSRegularExpression
/// syntax) the whole code must match. Not scored; an asset keeps its code, so
/// a re-inspection starts with it.
public struct BarcodeField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"barcode"`.
    public var name: String { "barcode" }
    /// Conditions compare the scanned code exactly.
    public var logicKind: LogicKind? { .text }

    /// The field's `pattern` compiled, or nil when it has none or an invalid one
    /// (an invalid pattern is a definition problem, never a crash).
    public func pattern(_ field: FieldDefinition) -> NSRegularExpression? {
        guard case .string(let source)? = field.raw["pattern"], !source.isEmpty else { return nil }
        return try? NSRegularExpression(pattern: source)
    }

    /// `pattern`, when given, is a non-empty string that compiles.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        switch field.raw["pattern"] {
        case nil, .null?: return []
        case .string(let source)? where !source.isEmpty:
            do {
                _ = try NSRegularExpression(pattern: source)
                return []
            } catch {
                return [
                    field.problem(
                        "'pattern' \(Typed.quote(source)) is not a valid regular expression; fix it or remove it")
                ]
            }
        case let other?:
            return [
                field.problem(
                    "'pattern' must be a non-empty string (a regular expression), not \(Refusal.describe(other)); fix it or remove it"
                )
            ]
        }
    }

    /// A string on one line, matching the whole `pattern` when there is one.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        if answer.isNull { return nil }
        guard case .string(let code) = answer else {
            return "a barcode answer " + Refusal.wrongKind(answer, expected: "a string")
        }
        if isBlank(answer) { return nil }
        if code.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a barcode must be one line of text without control characters"
        }
        return patternProblem(code, for: field)
    }

    /// The code as scanned or typed, surrounding spaces removed.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let code = Refusal.trimmed(input)
        guard !code.isEmpty else { throw Refusal.blankInput(input, expected: "the code as scanned") }
        if code.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw AnswerInputError(
                input: input,
                message:
                    "\(Typed.quote(input)) has a line break or control character; scan or type the code on one line")
        }
        if let problem = patternProblem(code, for: field) {
            throw AnswerInputError(input: input, message: "\(Typed.quote(input)): \(problem)")
        }
        return .string(code)
    }

    /// What to type.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        ["Scan the code, or type it as printed."]
    }

    /// The code on one line.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        switch answer {
        case nil: return AnswerDisplay.noAnswer(style)
        case .string(let code)?: return AnswerDisplay.text(code, style)
        case let other?: return isBlank(other) ? AnswerDisplay.noAnswer(style) : AnswerDisplay.unreadable(other, style)
        }
    }

    func patternProblem(_ code: String, for field: FieldDefinition) -> String? {
        guard let regex = pattern(field), case .string(let source)? = field.raw["pattern"] else { return nil }
        let whole = NSRange(code.startIndex..., in: code)
        let match = regex.firstMatch(in: code, options: [.anchored], range: whole)
        if let match, match.range == whole { return nil }
        return
            "the code \(Typed.quote(code)) does not match this field's pattern \(Typed.quote(source)); scan it again or check the label"
    }
}
