import FieldTypes
import Models

/// What completing a report and judging a submitted one ask of the logic.
extension FormLogic {
    /// The form as it stands for `state`: visible fields only, each required
    /// when the logic says so, so the registry's checks apply unchanged.
    public func visibleSchema(_ state: FormState) -> FormSchema {
        FormSchema(
            fields: schema.fields.enumerated().compactMap { i, field in
                guard state.visible[i] else { return nil }
                var shown = field
                shown.required = state.required[i]
                return shown
            })
    }

    /// Every reason the answers cannot complete the form: visible required
    /// fields unanswered and visible answers their types refuse. Hidden fields
    /// are neither required nor validated.
    public func completionProblems(_ answers: Answers) -> [CompletionProblem] {
        let state = evaluate(answers)
        return registry.completionProblems(visibleSchema(state), answers: state.visibleAnswers)
    }

    /// Every reason a submitted report's answers are refused (for the server),
    /// each naming the field: answers to hidden fields, answers the form or
    /// their types refuse, visible required fields missing, and calculated
    /// answers that differ from their expression.
    public func submissionProblems(_ answers: Answers) -> [String] {
        submissionFindings(answers).map(\.message)
    }

    /// `submissionProblems` with the field each one is about (what a merged
    /// report's CONFLICT lists).
    public func submissionFindings(_ answers: Answers) -> [AnswerProblem] {
        let state = evaluate(answers)
        var findings: [AnswerProblem] = []
        for (i, field) in schema.fields.enumerated() where !state.visible[i] {
            guard let answer = answers[field.id], !types[i].isBlank(answer) else { continue }
            findings.append(
                AnswerProblem(
                    fieldID: field.id, kind: .invalidAnswer,
                    message:
                        "\(field.messageName) is hidden by condition (\(hiddenReason(field.id, in: state) ?? "its condition does not hold")) and must have no answer; remove it"
                ))
        }
        var visibleOnly = answers
        for id in state.hiddenFields { visibleOnly[id] = nil }
        let visible = visibleSchema(state)
        findings += registry.validateAnswers(visible, answers: visibleOnly).filter { problem in
            // Answers to hidden fields are reported above, not as unknown fields.
            problem.kind != .unknownField || positions[problem.fieldID] == nil
        }
        findings += registry.completionProblems(visible, answers: visibleOnly).filter { $0.kind == .missingRequired }
            .map { AnswerProblem(fieldID: $0.fieldID, kind: .invalidAnswer, message: $0.message) }
        for (i, field) in schema.fields.enumerated()
        where state.visible[i] && rules[i].calculate != nil && rules[i].unsupported == nil {
            let expected = state.values[i]
            let given = answers[field.id].flatMap { types[i].isBlank($0) ? nil : $0 }
            if !Self.sameAnswer(expected, given) {
                findings.append(
                    AnswerProblem(
                        fieldID: field.id, kind: .invalidAnswer,
                        message:
                            "\(field.messageName) is calculated as \(expected.map(shown) ?? "no answer"), but the report says \(given.map(shown) ?? "nothing"); send the calculated answer"
                    ))
            }
        }
        return findings
    }

    /// Equal answers, numbers by value (`4` equals `4.0`).
    static func sameAnswer(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?):
            if let m = x.numberValue, let n = y.numberValue { return m == n }
            return x == y
        default: return false
        }
    }

    /// Why a field is hidden, in one line: which condition hides it and what
    /// the fields it reads hold; nil when it is shown.
    public func hiddenReason(_ id: FieldID, in state: FormState) -> String? {
        guard let i = positions[id], !state.visible[i], let by = state.hiddenBy[i],
            let condition = rules[by].visibleWhen
        else { return nil }
        let reads = Array(Set(condition.fieldReferences)).sorted().map { ref -> String in
            let read = positions[ref].flatMap { state.visible[$0] ? state.values[$0] : nil }
            let hidden = positions[ref].map { !state.visible[$0] } ?? false
            return "field \(quoted(ref)) is \(hidden ? "hidden" : read.map { shown($0) } ?? "unanswered")"
        }
        let owner =
            by == i
            ? "it is shown only when"
            : "its section \(quoted(schema.fields[by].id)) (\(plain(schema.fields[by].displayName))) is shown only when"
        return "\(owner) \(condition.summary)" + (reads.isEmpty ? "" : "; now \(reads.joined(separator: ", "))")
    }
}
