import Models

/// `checkbox_group`: any number of the field's `options`, stored as a list of
/// option strings in the options' order. Not scored.
public struct CheckboxGroupField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"checkbox_group"`.
    public var name: String { "checkbox_group" }
    /// `contains` tests whether an option is ticked.
    public var logicKind: LogicKind? { .options }

    /// Needs a non-empty list of distinct `options`.
    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        OptionList.check(field, typeName: name)
    }

    /// A list of distinct option strings.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        guard case .array(let items) = answer else {
            return "a checkbox_group answer " + Refusal.wrongKind(answer, expected: "a list of option strings")
        }
        let options = OptionList(field)
        var seen: Set<String> = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else {
                return
                    "item \(index + 1) of the checkbox_group answer must be an option string, not \(Refusal.describe(item))"
            }
            guard options.contains(text) else {
                return "\(OneLine.quote(text)) is not one of the options (\(options.summary))"
            }
            guard seen.insert(text).inserted else {
                return "\(OneLine.quote(text)) is chosen twice; list each option once"
            }
        }
        return nil
    }

    /// Comma-separated option texts (any case) or 1-based numbers: `1,3` or
    /// `Mop, Bucket`. An option whose text contains a comma is matched whole.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let options = OptionList(field)
        let expected = "options separated by commas, by text or number (\(options.summary))"
        guard !Refusal.trimmed(input).isEmpty else { throw Refusal.blankInput(input, expected: expected) }
        let tokens = input.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var chosen: [String] = []
        var start = 0
        while start < tokens.count {
            if Refusal.trimmed(tokens[start]).isEmpty { start += 1; continue }
            var matched: (option: String, end: Int)?
            for end in stride(from: tokens.count, to: start, by: -1) {
                if let option = options.match(tokens[start..<end].joined(separator: ",")) {
                    matched = (option, end)
                    break
                }
            }
            guard let matched else {
                throw AnswerInputError(
                    input: input,
                    message:
                        "\(OneLine.quote(Refusal.trimmed(tokens[start]))) is not one of the options; type \(expected)")
            }
            guard !chosen.contains(matched.option) else {
                throw AnswerInputError(
                    input: input,
                    message:
                        "\(OneLine.quote(matched.option)) is listed twice in \(OneLine.quote(input)); list each option once"
                )
            }
            chosen.append(matched.option)
            start = matched.end
        }
        guard !chosen.isEmpty else { throw Refusal.blankInput(input, expected: expected) }
        let ordered = options.options.filter(chosen.contains)
        return .array(ordered.map { .string($0) })
    }

    /// The numbered options.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        ["Choose any: type their numbers or texts separated by commas (like 1,3)."]
            + OptionList(field).numberedLines(style)
    }

    /// The chosen options, comma-separated.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        guard let answer, !isBlank(answer) else { return AnswerDisplay.noAnswer(style) }
        guard case .array(let items) = answer else { return AnswerDisplay.unreadable(answer, style) }
        var texts: [String] = []
        for item in items {
            guard case .string(let text) = item else { return AnswerDisplay.unreadable(answer, style) }
            texts.append(OneLine.flatten(text, lineBreak: " "))
        }
        let line = OneLine.display(texts.joined(separator: ", "), style: style)
        // Options of only spaces or control characters would leave nothing to show.
        return line.trimmingCharacters(in: .whitespaces).isEmpty ? AnswerDisplay.unreadable(answer, style) : line
    }

    /// The options ticked, one per line.
    public func layout(_ answer: JSONValue, for field: FieldDefinition) -> AnswerLayout {
        .list((answer.arrayValue ?? []).map { $0.stringValue ?? $0.canonicalString() })
    }
}
