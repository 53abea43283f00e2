import Foundation
import Models
import ServerStore

/// The contract's rules on a synced report's own fields and links, checked
/// before anything is stored; each refusal names the field.
enum ReportRules {
    /// The longest `completed_at_device` read (an RFC 3339 time is far shorter).
    static let longestTimestamp = 64

    /// The longest list of answer problems a refusal spells out; the rest are counted.
    static let problemsShown = 10

    /// `problems` as one line: the first `problemsShown`, then how many more.
    static func line(_ problems: [String]) -> String? {
        guard !problems.isEmpty else { return nil }
        let shown = problems.prefix(problemsShown).joined(separator: "; ")
        return problems.count > problemsShown ? shown + "; and \(problems.count - problemsShown) more" : shown
    }

    /// What is wrong with the report's ids, `completed_at_device` or `base_revision`, if anything.
    static func fieldProblem(_ report: WireReport) -> String? {
        var problems: [String] = []
        let ids: [(String, String?)] = [
            ("template_id", report.templateID), ("facility_id", report.facilityID), ("area_id", report.areaID),
            ("assignment_id", report.assignmentID), ("parent_server_id", report.parentServerID),
            ("server_id", report.serverID),
        ]
        for (name, value) in ids {
            guard let value else { continue }
            if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                problems.append("'\(name)' holds a control character")
            } else if value.utf8.count > 200 {
                problems.append("'\(name)' is longer than 200 bytes")
            }
        }
        if let text = report.completedAtDevice, !isRFC3339(text) {
            problems.append(
                "'completed_at_device' must be an RFC 3339 time such as 2026-03-01T09:30:00Z, not '\(text.prefix(40))'")
        }
        if let base = report.baseRevision {
            if base < 1 {
                problems.append("'base_revision' must be a positive integer, not \(base)")
            } else if report.serverID == nil {
                problems.append("'base_revision' comes only with a 'server_id'; a new report has neither")
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }

    /// Why a re-inspection may not link `parent`, if it may not: the parent
    /// must exist and be the caller's own (a supervisor may link any).
    static func parentRefusal(
        _ report: WireReport, parent: StoredReport?,
        caller: Caller
    ) -> (code: ServerError.Code, message: String)? {
        guard report.parentServerID != nil || report.parentLocalID != nil else { return nil }
        let named =
            report.parentServerID.map { "parent_server_id '\($0.prefix(80))'" }
            ?? "parent_local_id \(report.parentLocalID?.uuidString.lowercased() ?? "")"
        guard let parent else { return (.reportInvalid, "\(named) names no report on this server") }
        guard caller.isSupervisor || parent.ownerID == caller.user.id else {
            return (
                .forbidden, "\(named) is another inspector's report; only its owner or a supervisor may re-inspect it"
            )
        }
        return nil
    }

    /// Whether `text` is an RFC 3339 date-time (`T` or space, seconds,
    /// optional fraction, `Z` or an offset) no longer than `longestTimestamp`.
    static func isRFC3339(_ text: String) -> Bool {
        text.utf8.count <= longestTimestamp && RFC3339.isTimestamp(text, allowingSpace: true)
    }
}
