import Foundation
import ServerStore

extension ExportedReport {
    /// The current revision's grade as the server stored it; nil for a revision kept from before grades were kept.
    var grade: ReportGrade? { ReportGrade(json: gradeJSON) }

    /// The server's own score of the revision (contract 1.2); the report's for one kept from before grades.
    var serverScore: Double? {
        guard let grade else { return score }
        return grade.score
    }
}
