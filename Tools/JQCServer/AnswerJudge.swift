import FieldTypes
import Models
import Scoring

/// Judges a report's answers against its template with the field-type
/// registry and Scoring, exactly as the device does: the server refuses what
/// `validateAnswers` refuses plus required answers that are missing, and
/// scores with the same per-type scorers. Types the registry does not know
/// keep their answers verbatim and are never a reason to refuse.
struct AnswerJudge: Sendable {
    let registry: FieldTypeRegistry

    init(registry: FieldTypeRegistry = ServerFieldTypes.registry()) { self.registry = registry }

    /// Every problem with `answers`, in form order; empty when they are acceptable.
    func problems(schema: FormSchema, answers: Answers) -> [String] {
        var messages = registry.validateAnswers(schema, answers: answers).map(\.message)
        for problem in registry.completionProblems(schema, answers: answers) where problem.kind == .missingRequired {
            messages.append(problem.message)
        }
        return messages
    }

    /// The score ratio of `answers`, nil when nothing scoreable is answered.
    func score(schema: FormSchema, answers: Answers) -> Double? {
        Scorer.score(schema: schema, answers: answers) { field, answer in registry.score(field, answer) }.ratio
    }
}
