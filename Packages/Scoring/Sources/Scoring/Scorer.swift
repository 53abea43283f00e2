import Models

/// Adds up per-field outcomes into a score.
///
/// Rules (seed `000` section 17, then beyond): a field counts when its type
/// scored it; unanswered, N/A, unreadable and non-scoreable fields are left
/// out; each counted field adds `weight × fraction` to earned and `weight` to
/// possible (weight 1 unless the template says otherwise, so with no weights
/// this is exactly the seed's earned / answered); the ratio is nil when
/// nothing counts. A critical field that counts and did not pass fails the
/// inspection whatever the ratio. A field hidden by a condition is left out
/// of earned and possible points and marked hidden in the breakdown.
public enum Scorer {
    /// Scores `answers` against `schema`, asking `judge` (the field-type
    /// registry's scorer at the composition root) how each field did.
    /// Fields in `hidden` (hidden by a form-logic condition) do not count.
    public static func score(
        schema: FormSchema, answers: Answers, hidden: Set<FieldID> = [], passThreshold: Double? = nil,
        judge: (FieldDefinition, JSONValue?) -> FieldScore
    ) -> ScoreReport {
        var earned = 0.0
        var possible = 0.0
        var criticalFailures: [FieldID] = []
        var contributions: [FieldContribution] = []
        for field in schema.fields {
            let isHidden = hidden.contains(field.id)
            let outcome = judge(field, isHidden ? nil : answers[field.id])
            let weight = field.effectiveWeight
            var contribution = FieldContribution(
                fieldID: field.id, label: field.label, type: field.type,
                weight: weight, critical: field.critical, outcome: outcome,
                earned: 0, possible: 0, hidden: isHidden)
            if !isHidden, case .scored(let fraction, let passed) = outcome {
                let clamped = min(max(fraction, 0), 1)
                contribution.earned = weight * clamped
                contribution.possible = weight
                earned += contribution.earned
                possible += contribution.possible
                if field.critical && !passed { criticalFailures.append(field.id) }
            }
            contributions.append(contribution)
        }
        return ScoreReport(
            ratio: possible > 0 ? earned / possible : nil, earned: earned, possible: possible,
            criticalFailures: criticalFailures, fields: contributions, passThreshold: passThreshold)
    }
}
