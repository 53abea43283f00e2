import Foundation
import FieldTypes
import Models

/// A field type provided by an executable, `jqc-field-NAME`, that speaks the
/// field-type protocol (JSON Lines over its standard input and output).
///
/// To the registry it is one more `FieldType`. The plugin is started the
/// first time the type is asked anything beyond its name, and kept for the
/// life of the program. While the plugin cannot be used (missing, not
/// executable, exited twice, too slow, not the protocol) the type behaves as
/// an unsupported one and says why in `unavailableReason`.
///
/// The shared conventions are answered here without asking the plugin: no
/// answer and blank answers (null, a blank string, an empty list) are valid
/// and unanswered, and for a scored type `"N/A"` (typed as `n/a`) is valid,
/// shown as N/A and scored as not applicable.
public final class ExternalFieldType: FieldType {
    /// The name from the file name, `jqc-field-NAME`.
    public let name: String
    /// The plugin's path.
    public let executablePath: String
    let connection: PluginConnection

    /// The type named `name`, provided by the executable at `path`; nothing is started yet.
    public init(name: String, executablePath path: String, settings: ExternalFieldTypeSettings) {
        self.name = name
        executablePath = path
        connection = PluginConnection(name: name, path: path, settings: settings)
    }

    /// Why the plugin cannot be used (naming the executable and how it failed), nil when it can.
    public var unavailableReason: String? { connection.unavailableReason }

    /// The failure with its code, nil when the plugin works.
    public var failure: ExternalFieldTypesError? { connection.failure }

    public var isAnswerable: Bool { connection.description?.answerable ?? true }
    public var isScoreable: Bool { connection.description?.scoreable ?? false }
    /// An unavailable type's meaning is unknown, so it copies nothing.
    public var copiesOnReinspection: Bool { connection.description?.copiesOnReinspection ?? false }
    public var logicKind: LogicKind? { connection.description?.compares }
    public var logicOperators: Set<LogicOperator> { connection.description?.operators ?? LogicOperator.universal }

    public func checkDefinition(_ field: FieldDefinition) -> [SchemaProblem] {
        switch connection.request("check_definition", ["field": field.json]) {
        case .unavailable:
            return []
        case .refused(let message):
            return [
                SchemaProblem(
                    fieldID: field.id, message: "field type '\(name)' could not check the definition: \(message)")
            ]
        case .result(let result):
            guard let list = result["problems"]?.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                _ = connection.violated("check_definition", "its result has no 'problems' list of strings")
                return []
            }
            return list.compactMap(\.stringValue).map {
                SchemaProblem(fieldID: field.id, message: Self.line($0, or: "the definition has a problem"))
            }
        }
    }

    public func validate(_ answer: JSONValue, for field: FieldDefinition) -> String? {
        if isBlank(answer) || isNotApplicable(answer) { return nil }
        switch connection.request("validate", ["field": field.json, "answer": answer]) {
        case .unavailable:
            return nil
        case .refused(let message):
            return message
        case .result(let result):
            switch result["problem"] {
            case nil, .null?: return nil
            case .string(let problem)?:
                return Self.line(problem, or: "the answer is not valid for field type '\(name)'")
            case let other?:
                _ = connection.violated("validate", "its 'problem' is \(other.kindDescription), not a string or null")
                return nil
            }
        }
    }

    public func parse(_ input: String, for field: FieldDefinition, context: InputContext) throws(AnswerInputError)
        -> JSONValue
    {
        if isScoreable, NotApplicable.isTyped(input) { return NotApplicable.answer }
        switch connection.request("parse", ["field": field.json, "input": .string(input)]) {
        case .unavailable(let reason):
            throw AnswerInputError(
                input: input,
                message:
                    "\(OneLine.quote(input)) cannot be read: \(reason); fix the plugin, or set its JSON with --value-json"
            )
        case .refused(let message):
            throw AnswerInputError(input: input, message: message)
        case .result(let result):
            guard let answer = result["answer"] else {
                let reason = connection.violated("parse", "its result has no 'answer'")
                throw AnswerInputError(input: input, message: "\(OneLine.quote(input)) cannot be read: \(reason)")
            }
            return answer
        }
    }

    /// The generic hint, or why the field cannot be answered while the plugin is unavailable.
    public func prompt(for field: FieldDefinition, style: TerminalStyle) -> [String] {
        guard let reason = unavailableReason else { return ["Type the answer (\(name))."] }
        return [Self.shown("This field cannot be answered here: \(reason).", style: style, limit: 1_000)]
    }

    public func display(_ answer: JSONValue?, for field: FieldDefinition, style: TerminalStyle) -> String {
        guard let answer, !isBlank(answer) else { return AnswerDisplay.noAnswer(style) }
        if isNotApplicable(answer) { return AnswerDisplay.notApplicable(style) }
        switch connection.request("display", ["field": field.json, "answer": answer]) {
        case .unavailable:
            let head = style.paint("field type '\(name)' unavailable", .warning)
            return "\(head): \(Self.shown(answer.canonicalString(), style: style))"
        case .refused:
            return AnswerDisplay.unreadable(answer, style)
        case .result(let result):
            guard let text = result["text"]?.stringValue else {
                _ = connection.violated("display", "its result has no 'text' string")
                return AnswerDisplay.unreadable(answer, style)
            }
            let line = Self.shown(text, style: style)
            return line.isEmpty ? AnswerDisplay.unreadable(answer, style) : line
        }
    }

    public func score(_ answer: JSONValue?, for field: FieldDefinition) -> FieldScore {
        guard isScoreable else { return .notScoreable }
        guard let answer, !isBlank(answer) else { return .unanswered }
        if isNotApplicable(answer) { return .notApplicable }
        switch connection.request("score", ["field": field.json, "answer": answer]) {
        case .unavailable:
            // The plugin failed during this call: from now on the type is not scored, as an unsupported one.
            return .unreadable(answer.canonicalString())
        case .refused:
            return .unreadable(answer.canonicalString())
        case .result(let result):
            switch result["score"] {
            case .string("unanswered")?: return .unanswered
            case .string("not_applicable")?: return .notApplicable
            case let value? where value.numberValue.map({ (0...1).contains($0) }) == true:
                let fraction = value.numberValue!
                switch result["passed"] {
                case .bool(let passed)?: return .scored(fraction: fraction, passed: passed)
                case nil, .null?: return .scored(fraction: fraction, passed: fraction >= Self.passMark)
                case let other?:
                    _ = connection.violated(
                        "score", "its 'passed' is \(other.kindDescription), not true, false or null")
                    return .unreadable(answer.canonicalString())
                }
            default:
                let given = result["score"].map { $0.canonicalString() } ?? "missing"
                _ = connection.violated(
                    "score", "its 'score' is \(given); use \"unanswered\", \"not_applicable\" or a number from 0 to 1")
                return .unreadable(answer.canonicalString())
            }
        }
    }

    public func logicValue(of answer: JSONValue, for field: FieldDefinition) -> LogicValue? {
        guard !isBlank(answer), !NotApplicable.isAnswer(answer), let kind = logicKind else { return nil }
        guard case .result(let result) = connection.request("compare_value", ["field": field.json, "answer": answer])
        else { return nil }
        let value: LogicValue?
        switch result["value"] {
        case .null?: value = nil
        case .string(let text)?: value = .text(text)
        case .bool(let flag)?: value = .bool(flag)
        case let number? where number.numberValue?.isFinite == true: value = .number(number.numberValue!)
        default:
            _ = connection.violated(
                "compare_value", "its 'value' is missing or not a number, string, true, false or null")
            return nil
        }
        // A value of another kind than the type compares cannot be compared.
        return value?.kind == kind ? value : nil
    }

    /// A score that says neither passed nor failed passes from this fraction,
    /// the mark a rating passes at by default.
    public static let passMark = 0.6

    /// Calls a method outside the protocol's table (`samples`); used by the conformance check.
    func call(_ method: String, _ params: [String: JSONValue] = [:]) -> PluginAnswer {
        connection.request(method, params)
    }

    private func isNotApplicable(_ answer: JSONValue) -> Bool {
        NotApplicable.isAnswer(answer) && isScoreable
    }

    /// Plugin text as one display line: no control characters, cut to a
    /// sensible length, ASCII only in an ASCII style.
    static func shown(_ text: String, style: TerminalStyle, limit: Int = 200) -> String {
        let flat = OneLine.cut(
            OneLine.flatten(text, lineBreak: style.pick(" \u{23CE} ", " / ")), limit: limit,
            ellipsis: style.pick("\u{2026}", "...")
        )
        .trimmingCharacters(in: .whitespaces)
        guard !style.unicode else { return flat }
        return String(String.UnicodeScalarView(flat.unicodeScalars.map { $0.isASCII ? $0 : "?" }))
    }

    /// A message from the plugin as one non-empty line.
    static func line(_ text: String, or fallback: String) -> String {
        let line = PluginConnection.line(text)
        return line.isEmpty ? fallback : line
    }
}
