import Models

/// `email`: an email address, stored as a string.
public struct EmailField: FieldType {
    /// Makes the type.
    public init() {}
    /// `"email"`.
    public var name: String { "email" }
    /// Compares the address exactly.
    public var logicKind: LogicKind? { .text }

    /// A string shaped like `someone@example.org`: one `@`, no spaces, a dot in the domain.
    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        if let problem = TextAnswer.validate(answer, typeName: name) { return problem }
        guard case .string(let text) = answer, !isBlank(answer) else { return nil }
        return Self.isAddress(text) ? nil : Self.refusal(text)
    }

    /// The address as typed, without surrounding spaces.
    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        let text = try TextAnswer.parse(input, expected: "an email address like someone@example.org")
        guard Self.isAddress(text) else { throw AnswerInputError(input: input, message: Self.refusal(text)) }
        return .string(text)
    }

    /// What to type.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        ["Type an email address, like someone@example.org."]
    }

    /// The address.
    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        TextAnswer.display(answer, style: style)
    }

    /// True for `local@domain.tld`: non-empty local part, no whitespace or
    /// control characters, a domain of non-empty dot-separated labels whose
    /// last label has at least two letters.
    static func isAddress(_ text: String) -> Bool {
        guard
            !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else { return false }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") }),
            let tld = labels.last
        else { return false }
        return tld.count >= 2 && tld.allSatisfy(\.isLetter)
    }

    private static func refusal(_ text: String) -> String {
        "\(OneLine.quote(text)) is not an email address; type one like someone@example.org"
    }

    /// The text as typed.
    public func layout(_ answer: JSONValue, for field: FieldDefinition) -> AnswerLayout {
        .text(answer.stringValue ?? answer.canonicalString())
    }
}
