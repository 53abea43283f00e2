import Foundation
import Models
import ServerStore

/// Grades the reports kept from before the server graded them (contract
/// 1.2): each current revision without a grade is scored against its
/// template as it is now, in batches, each its own write, so the queue's
/// pass or fail, the deficiencies and the roll-ups cover every report. Run
/// as a server starts; another instance doing the same at once writes the
/// same grades.
enum GradeBackfill {
    /// Reports graded a write.
    static let batch = 500

    /// Grades every ungraded report; how many it graded.
    @discardableResult
    static func run(_ store: any ServerStorage, judge: AnswerJudge) throws(ServerError) -> Int {
        var graded = 0
        var templates: [String: Template?] = [:]
        while true {
            let done = try store.write { session -> Int in
                let waiting = try session.ungradedReports(limit: batch)
                for report in waiting {
                    if templates[report.templateID] == nil {
                        templates[report.templateID] = .some(try session.template(id: report.templateID))
                    }
                    let answers = CanonicalJSON.value(report.payloadJSON)["answers"].flatMap(Answers.init(json:))
                    // A report whose template is gone keeps the score it had, and has no deficiency known.
                    var grade = ReportGrade(score: report.score, passed: nil, deficiencies: [])
                    if let template = templates[report.templateID] ?? nil, let answers {
                        grade = judge.grade(template, answers: answers)
                    }
                    try session.setGrade(serverID: report.serverID, revision: report.revision, grade)
                }
                return waiting.count
            }
            graded += done
            if done < batch { return graded }
        }
    }
}
