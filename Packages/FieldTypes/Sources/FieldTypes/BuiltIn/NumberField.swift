import Foundation
import Models

/// `number`: a measurement or count, stored as a JSON number
/// (a whole number as an integer, so `12` stays `12`, not `12.0`).
public struct NumberField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"number"`.
    public var name: String { "number" }
    /// Compares its number; may be calculated.
    public var logicKind: LogicKind? { .number }
    /// A calculated number is stored like a typed one.
    public var holdsCalculation: Bool { true }

    /// A finite JSON number.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        switch answer {
        case .integer: return nil
        case .double(let d) where d.isFinite: return nil
        case _ where isBlank(answer): return nil
        default: return "a number answer " + Refusal.wrongKind(answer, expected: "a JSON number")
        }
    }

    /// Locale-free decimal notation: `12`, `-3.5`, `+2`, `.5`, `1e3`. A comma is
    /// refused rather than guessed at (`1,5` could be 1.5 or fifteen hundred).
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let text = Refusal.trimmed(input)
        guard !text.isEmpty else { throw Refusal.blankInput(input, expected: "a number like 12 or -3.5") }
        guard let value = Self.number(text) else {
            let hint =
                text.contains(",")
                ? "use a point for decimals (1.5) and no thousands separators"
                : "type digits with a point for decimals, like 12, -3.5 or 1e3"
            throw AnswerInputError(input: input, message: "\(OneLine.quote(input)) is not a number; \(hint)")
        }
        return value
    }

    /// What to type.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        ["Type a number, like 12 or -3.5 (a point for decimals)."]
    }

    /// The number as written in JSON.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        switch answer {
        case nil: return AnswerDisplay.noAnswer(style)
        case .integer(let i)?: return String(i)
        case .double(let d)? where d.isFinite:
            if let i = JSONValue.double(d).integerValue { return String(i) }
            return String(d)
        case let other?: return isBlank(other) ? AnswerDisplay.noAnswer(style) : AnswerDisplay.unreadable(other, style)
        }
    }

    /// The JSON number for decimal text, or nil when the text is not one.
    static func number(_ text: String) -> JSONValue? {
        var chars = Substring(text)
        if chars.first == "+" || chars.first == "-" { chars = chars.dropFirst() }
        let mantissa = chars.prefix { $0 != "e" && $0 != "E" }
        let exponent = chars.dropFirst(mantissa.count)
        let pieces = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digitsOnly: (Substring) -> Bool = { $0.allSatisfy { ("0"..."9").contains($0) } }
        guard pieces.allSatisfy(digitsOnly), pieces.contains(where: { !$0.isEmpty }) else { return nil }
        if !exponent.isEmpty {
            var power = exponent.dropFirst()
            if power.first == "+" || power.first == "-" { power = power.dropFirst() }
            guard !power.isEmpty, digitsOnly(power) else { return nil }
        }
        if pieces.count == 1, exponent.isEmpty, let whole = Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text)
        {
            return .integer(whole)
        }
        guard let value = Double(text), value.isFinite else { return nil }
        if let whole = JSONValue.double(value).integerValue { return .integer(whole) }
        return .double(value)
    }
}
