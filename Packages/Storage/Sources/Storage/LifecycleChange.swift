import Models

/// What a lifecycle step changes besides its event, and what it checks
/// first: every part optional, none by default.
struct LifecycleChange {
    /// Changes the report after the event (only allowed when the event saves a revision).
    var edit: ((inout Report) -> Void)? = nil
    /// Scores the answers the event leaves; the score is stored with them.
    var score: ((Answers) -> Double?)? = nil
    /// Makes the answers the event leaves into the ones stored, before they are scored.
    var derive: ((Answers) -> Answers)? = nil
    /// The template version the caller worked on: a report moved onto another one is refused.
    var templateVersion: Int? = nil
    /// The answers the caller read: a report whose stored answers are other ones now is refused.
    var basedOn: Answers? = nil
}
