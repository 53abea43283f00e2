import Models

/// `date`: a calendar date, stored as `"YYYY-MM-DD"`.
public struct DateField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"date"`.
    public var name: String { "date" }
    /// Compares calendar dates.
    public var logicKind: LogicKind? { .date }

    /// A string `YYYY-MM-DD` naming a real date (`2026-02-30` is refused).
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        guard case .string(let text) = answer else {
            return "a date answer " + Refusal.wrongKind(answer, expected: "a string \"YYYY-MM-DD\"")
        }
        if isBlank(answer) || RFC3339.isDay(text) { return nil }
        return Self.refusal(text)
    }

    /// `YYYY-MM-DD`, or `today` for the device's date (in UTC).
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let text = Refusal.trimmed(input)
        guard !text.isEmpty else { throw Refusal.blankInput(input, expected: "a date as YYYY-MM-DD or today") }
        if text.lowercased() == "today" { return .string(RFC3339.day(context.deviceTime)) }
        guard RFC3339.isDay(text) else { throw AnswerInputError(input: input, message: Self.refusal(input)) }
        return .string(text)
    }

    /// What to type.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        ["Type a date as YYYY-MM-DD, or today."]
    }

    /// The date as stored.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        switch answer {
        case nil: return AnswerDisplay.noAnswer(style)
        case .string(let text)? where RFC3339.isDay(text): return text
        case let other?: return isBlank(other) ? AnswerDisplay.noAnswer(style) : AnswerDisplay.unreadable(other, style)
        }
    }

    private static func refusal(_ text: String) -> String {
        "\(OneLine.quote(text)) is not a real date; type it as YYYY-MM-DD, like 2026-03-01, or today"
    }
}
