import FieldTypes
import FormLogic
import Models
import Scoring
import ServerStore

/// Judges a report's answers against its template with the field-type
/// registry, FormLogic and Scoring, exactly as the device does: the server
/// refuses what `validateAnswers` refuses, answers to fields hidden by a
/// condition, visible required answers that are missing and calculated
/// answers that differ from their expression, and scores with the same
/// per-type scorers, hidden fields left out. Types the registry does not
/// know keep their answers verbatim and are never a reason to refuse.
struct AnswerJudge: Sendable {
    let registry: FieldTypeRegistry

    init(registry: FieldTypeRegistry = ServerFieldTypes.registry()) { self.registry = registry }

    /// Every problem with `answers`, in form order, each naming its field; empty when they are acceptable.
    func problems(schema: FormSchema, answers: Answers) -> [String] {
        FormLogic(schema: schema, registry: registry).submissionProblems(answers)
    }

    /// The server's grade of `answers` against `template`: score, pass
    /// against its threshold, deficiencies (contract 1.2).
    func grade(_ template: Template, answers: Answers) -> ReportGrade {
        grade(logic: FormLogic(schema: template.schema, registry: registry), template: template, answers: answers)
    }

    /// `problems` with the template's logic compiled once (`TemplateCache`).
    func problems(_ template: CompiledTemplate, answers: Answers) -> [String] {
        template.logic.submissionProblems(answers)
    }

    /// `grade` with the template's logic compiled once (`TemplateCache`).
    func grade(_ template: CompiledTemplate, answers: Answers) -> ReportGrade {
        grade(logic: template.logic, template: template.template, answers: answers)
    }

    /// The whole score of `answers`, each field's part in it included.
    func scoreReport(_ template: Template, answers: Answers) -> ScoreReport {
        scoreReport(logic: FormLogic(schema: template.schema, registry: registry), template: template, answers: answers)
    }

    /// The answers of a revision made on the server (a supervisor's edit, the
    /// admin tool), by someone other than the signer: each signature kept
    /// from `previous` (the same fingerprint) is marked as covering the last
    /// revision it sealed (`"covers_revision": N`; `revision` when it claimed
    /// the previous one), so it is never read as vouching for this one.
    /// Which fields are signatures is the registry's to say.
    func keepingSignatures(_ next: JSONValue, previous: JSONValue, revision: Int, schema: FormSchema) -> JSONValue {
        guard case .object(var members) = next else { return next }
        for field in schema.fields {
            let type = registry.resolve(field)
            guard type.vouchesForReport, let answer = members[field.id.rawValue],
                let before = previous[field.id.rawValue],
                let sealed = type.vouchedFingerprint(before), type.vouchedFingerprint(answer) == sealed
            else { continue }
            members[field.id.rawValue] =
                type.coveredRevision(before) != nil ? before : type.covering(answer, revision: revision)
        }
        return .object(members)
    }

    private func grade(logic: FormLogic, template: Template, answers: Answers) -> ReportGrade {
        let score = scoreReport(logic: logic, template: template, answers: answers)
        return ReportGrade(
            score: score.ratio, passed: score.passed,
            deficiencies: score.deficiencies.map(\.rawValue))
    }

    private func scoreReport(logic: FormLogic, template: Template, answers: Answers) -> ScoreReport {
        let state = logic.evaluate(answers)
        return Scorer.score(
            schema: template.schema, answers: state.answers, hidden: Set(state.hiddenFields),
            passThreshold: template.passThreshold
        ) { field, answer in registry.score(field, answer) }
    }
}
