import Foundation
import Models

/// The `options` of a choice field (`radio`, `select`, `checkbox_group`):
/// the definition checks they share and how typed text picks an option.
struct OptionList {
    /// The options in template order; empty when the definition has none.
    let options: [String]

    init(_ field: FieldDefinition) { options = field.options ?? [] }

    /// Every problem with the field's `options`: missing, empty, blank or
    /// repeated entries (options are matched ignoring case, so `Yes` and `yes` clash).
    static func check(_ field: FieldDefinition, typeName: String) -> [SchemaProblem] {
        guard let options = field.options else {
            return [field.problem("a \(typeName) field needs an 'options' list; add the choices as strings")]
        }
        guard !options.isEmpty else {
            return [field.problem("the 'options' list of a \(typeName) field is empty; add at least one choice")]
        }
        var problems: [SchemaProblem] = []
        var seen: Set<String> = []
        var reported: Set<String> = []
        for (index, option) in options.enumerated() {
            let key = normalized(option)
            if key.isEmpty {
                problems.append(field.problem("option \(index + 1) is blank; give every option some text"))
            } else if !seen.insert(key).inserted, reported.insert(key).inserted {
                problems.append(
                    field.problem(
                        "option \(OneLine.quote(option)) appears more than once (options are matched ignoring case); keep one"
                    ))
            }
        }
        return problems
    }

    /// The option a typed token names: its text (ignoring case and surrounding
    /// spaces) first, then its 1-based number.
    func match(_ token: String) -> String? {
        let key = Self.normalized(token)
        guard !key.isEmpty else { return nil }
        if let byText = options.first(where: { Self.normalized($0) == key }) { return byText }
        // Compared before subtracting: `-9223372036854775808` is a number too.
        if let number = Int(key), number >= 1, number <= options.count { return options[number - 1] }
        return nil
    }

    /// True when `answer` is exactly one of the options.
    func contains(_ answer: String) -> Bool { options.contains(answer) }

    /// "1 Clean, 2 Dirty, ..." for messages, at most ten choices.
    var summary: String {
        let shown = options.prefix(10).enumerated().map {
            "\($0.offset + 1) \(OneLine.cut(OneLine.flatten($0.element, lineBreak: " "), limit: 30, ellipsis: "..."))"
        }
        return shown.joined(separator: ", ") + (options.count > 10 ? ", ..." : "")
    }

    /// One prompt line per option: `  1) Clean`.
    func numberedLines(_ style: TerminalStyle) -> [String] {
        options.enumerated().map { "  \($0.offset + 1)) \(OneLine.display($0.element, style: style, limit: 80))" }
    }

    static func normalized(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
