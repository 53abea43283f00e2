import Foundation

/// One report's move onto the newest version of its template, as the
/// workspace plans it from the answers read inside the moving transaction.
public struct PlannedMove: Sendable {
    /// The answers on the new version (kept, read anew, calculated).
    public var answers: Answers
    /// Their score on the new version.
    public var score: Double?
    /// What the move did: the note the report keeps, the answers set aside.
    public var move: TemplateMove

    /// A planned move.
    public init(answers: Answers, score: Double?, move: TemplateMove) {
        self.answers = answers
        self.score = score
        self.move = move
    }
}
