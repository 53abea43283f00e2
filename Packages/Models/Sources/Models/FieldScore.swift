/// What one field contributes to a score, as its field type judges it.
/// Field types produce it; Scoring adds it up. Neither needs the other.
public enum FieldScore: Sendable, Hashable {
    /// The type is not scored (text, date, section...).
    case notScoreable
    /// A scoreable field with no answer: excluded from the score.
    case unanswered
    /// Answered "N/A": excluded from the score.
    case notApplicable
    /// An answer the type could not read (a wrong-typed value from elsewhere): excluded, and shown.
    case unreadable(String)
    /// An answered field: `fraction` of its weight earned (0...1), and whether it passed.
    case scored(fraction: Double, passed: Bool)
}
