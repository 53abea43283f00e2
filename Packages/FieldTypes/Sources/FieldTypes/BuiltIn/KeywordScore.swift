import Models

/// The seed's keyword scorer, shared by `radio` and `pass_fail`: blank is
/// unanswered, `N/A` not applicable, a pass keyword passes, any other string fails.
enum KeywordScore {
    static func score(_ answer: JSONValue?, isBlank: Bool, typeName: String) -> FieldScore {
        guard let answer, !isBlank else { return .unanswered }
        if NotApplicable.isAnswer(answer) { return .notApplicable }
        guard case .string(let text) = answer else {
            return .unreadable("a \(typeName) answer must be a string, not \(Refusal.describe(answer))")
        }
        return PassKeywords.passes(text) ? .scored(fraction: 1, passed: true) : .scored(fraction: 0, passed: false)
    }
}
