import Foundation
import Models
import Scoring

/// Judges a report's answers against its template: every problem (wrong
/// types, missing required answers) and the score, the way the device does.
struct AnswerJudge: Sendable {
    /// Every problem with `answers`, in form order; empty when they are acceptable.
    func problems(schema: FormSchema, answers: Answers) -> [String] {
        var problems: [String] = []
        for field in schema.fields {
            let answer = answers[field.id]
            if let answer, let problem = Self.typeProblem(field, answer) {
                problems.append("'\(field.displayName)' (\(field.id)): \(problem)")
            }
            if field.required && Self.answerable(field.type) && (answer == nil || Self.isEmpty(answer)) {
                problems.append("'\(field.displayName)' (\(field.id)) is required")
            }
        }
        return problems
    }

    /// The score ratio of `answers`, nil when nothing scoreable is answered.
    func score(schema: FormSchema, answers: Answers) -> Double? {
        Scorer.score(schema: schema, answers: answers) { field, answer in Self.fieldScore(field, answer) }.ratio
    }

    private static func answerable(_ type: String) -> Bool { type != "section" && type != "label" }

    private static func isEmpty(_ answer: JSONValue?) -> Bool {
        switch answer {
        case .string(let s)?: return s.trimmingCharacters(in: .whitespaces).isEmpty
        case .array(let a)?: return a.isEmpty
        case .integer(0)?: return true
        default: return false
        }
    }

    private static func typeProblem(_ field: FieldDefinition, _ answer: JSONValue) -> String? {
        if answer == .string("N/A"), ["rating", "pass_fail", "checkbox", "radio"].contains(field.type) { return nil }
        switch field.type {
        case "text", "email", "textarea":
            return answer.stringValue == nil ? "expected a string, not \(answer.kindDescription)" : nil
        case "radio", "select":
            guard let s = answer.stringValue else { return "expected one of the options, not \(answer.kindDescription)" }
            if let options = field.options, !options.contains(s) { return "'\(s)' is not one of the options" }
            return nil
        case "number":
            return answer.numberValue == nil ? "expected a number, not \(answer.kindDescription)" : nil
        case "date":
            guard let s = answer.stringValue, s.count == 10 else { return "expected a YYYY-MM-DD date" }
            return nil
        case "checkbox":
            if answer.boolValue != nil || answer.stringValue == "true" || answer.stringValue == "false" { return nil }
            return "expected true or false, not \(answer.kindDescription)"
        case "checkbox_group":
            guard let items = answer.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else { return "expected a list of options" }
            return nil
        case "rating":
            guard let v = answer.integerValue, v >= 0, v <= Int64(field.max ?? 5) else { return "expected a whole number from 0 to \(field.max ?? 5)" }
            return nil
        case "pass_fail":
            return answer.stringValue == "pass" || answer.stringValue == "fail" ? nil : "expected \"pass\" or \"fail\""
        case "table":
            guard let rows = answer.arrayValue, rows.allSatisfy({ $0.objectValue != nil }) else { return "expected a list of rows" }
            return nil
        case "image":
            guard let items = answer.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else { return "expected a list of photo ids" }
            return nil
        case "signature":
            return answer.objectValue != nil || answer.stringValue != nil ? nil : "expected a signature"
        case "section", "label":
            return "this field is never answered"
        default:
            return nil
        }
    }

    private static func fieldScore(_ field: FieldDefinition, _ answer: JSONValue?) -> FieldScore {
        let keywords: Set<String> = ["pass", "yes", "ok", "good", "acceptable", "compliant"]
        guard ["rating", "checkbox", "radio", "pass_fail"].contains(field.type) else { return .notScoreable }
        guard let answer else { return .unanswered }
        if answer == .string("N/A") { return .notApplicable }
        switch field.type {
        case "rating":
            guard let v = answer.integerValue else { return .unreadable("not a number") }
            if v == 0 { return .unanswered }
            let fraction = Double(v) / Double(field.max ?? 5)
            return .scored(fraction: fraction, passed: fraction >= 0.5)
        case "checkbox":
            let on = answer.boolValue ?? (answer.stringValue == "true")
            return .scored(fraction: on ? 1 : 0, passed: on)
        default:
            guard let s = answer.stringValue else { return .unreadable("not a string") }
            if s.isEmpty { return .unanswered }
            let pass = keywords.contains(s.lowercased())
            return .scored(fraction: pass ? 1 : 0, passed: pass)
        }
    }
}
