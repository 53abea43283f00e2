import Foundation
import Models

/// Which issues become actions by themselves, and by when each is due: the
/// server's `--action-threshold` and `--action-due` (contract 1.2's
/// defaults: high and above; critical 24 h, high 72 h, medium 7 days, low 14 days).
struct ActionPolicy: Sendable, Equatable {
    /// The least severity an issue needs to become an action when its report is accepted.
    var threshold: IssueSeverity = .high
    /// Hours from acceptance to the due time, by severity.
    var dueHours: [IssueSeverity: Int] = [.critical: 24, .high: 72, .medium: 7 * 24, .low: 14 * 24]

    /// Whether an issue of `severity` becomes an action by itself.
    func makesAction(_ severity: IssueSeverity) -> Bool {
        Self.rank(severity) >= Self.rank(threshold)
    }

    /// When an action of `severity` made at `date` is due.
    func due(_ severity: IssueSeverity, from date: Date) -> String {
        RFC3339.string(date.addingTimeInterval(TimeInterval((dueHours[severity] ?? 24) * 3600)))
    }

    /// A severity's place from `low` (0) to `critical` (3).
    static func rank(_ severity: IssueSeverity) -> Int {
        IssueSeverity.allCases.firstIndex(of: severity) ?? 0
    }
}
