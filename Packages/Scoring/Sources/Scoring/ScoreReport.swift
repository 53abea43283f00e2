import Models

/// A report's score with every field's part in it.
public struct ScoreReport: Sendable, Hashable {
    /// Earned over possible, in 0...1; nil when nothing scoreable is answered (the seed's `nil`).
    public var ratio: Double?
    /// Sum of weight × fraction over the fields that count.
    public var earned: Double
    /// Sum of the weights of the fields that count.
    public var possible: Double
    /// Critical fields that were answered and failed, in form order.
    public var criticalFailures: [FieldID]
    /// Every field of the form, in order, with what it contributed.
    public var fields: [FieldContribution]
    /// The template's `pass_threshold`, when the scorer was told it.
    public var passThreshold: Double?

    /// Whether the report passes its template's threshold (`passed(threshold:)`
    /// with `passThreshold`); nil when the template sets none.
    public var passed: Bool? { passed(threshold: passThreshold) }

    /// The fields whose answers failed (contract 1.2's deficiencies), in
    /// form order: counted answers their type judged not passing. N/A,
    /// unanswered and hidden fields never are.
    public var deficiencies: [FieldID] { fields.filter(\.deficient).map(\.fieldID) }

    /// Whether the report passes a template's `pass_threshold`: nil when
    /// there is none; false with no score or a failed critical field; else
    /// the ratio at or above the threshold (within 1e-9, so that 0.8 made of
    /// weights that do not add up exactly in binary still meets 0.8).
    public func passed(threshold: Double?) -> Bool? {
        guard let threshold else { return nil }
        guard let ratio, !failedCritical else { return false }
        return ratio + Self.tolerance >= threshold
    }

    /// How far below a threshold a ratio may sit and still meet it.
    public static let tolerance = 1e-9

    /// True when a critical field failed: the inspection fails whatever the ratio.
    public var failedCritical: Bool { !criticalFailures.isEmpty }

    /// The overall verdict a supervisor reads first.
    public var verdict: Verdict {
        if failedCritical { return .failedCritical }
        return ratio == nil ? .notScored : .scored
    }

    /// The overall verdict.
    public enum Verdict: String, Sendable, Hashable {
        /// Nothing scoreable was answered.
        case notScored = "NOT_SCORED"
        /// A ratio stands and no critical field failed.
        case scored = "SCORED"
        /// A critical field failed.
        case failedCritical = "FAILED_CRITICAL"
    }

    /// The ratio as a whole percentage ("83%"), or "not scored".
    public var percentText: String {
        guard let ratio else { return "not scored" }
        return "\(Int((ratio * 100).rounded()))%"
    }
}

/// One field's part in a score.
public struct FieldContribution: Sendable, Hashable {
    public var fieldID: FieldID
    public var label: String
    public var type: String
    public var weight: Double
    public var critical: Bool
    /// How the field type judged the answer.
    public var outcome: FieldScore
    /// What the field added to `earned` (weight × fraction), 0 when it does not count.
    public var earned: Double
    /// What the field added to `possible` (its weight when it counts, else 0).
    public var possible: Double
    /// True when a form-logic condition hides the field: it never counts.
    public var hidden: Bool = false

    /// True when the field counts and its type judged the answer a failure.
    public var deficient: Bool {
        if counts, case .scored(_, let passed) = outcome { return !passed }
        return false
    }

    /// True when the field is part of the ratio.
    public var counts: Bool {
        if hidden { return false }
        if case .scored = outcome { return true }
        return false
    }
}
