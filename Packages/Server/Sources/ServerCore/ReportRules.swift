import Foundation
import Models

/// The contract's rules on a synced report's own fields and links, checked
/// before anything is stored; each refusal names the field.
enum ReportRules {
    /// The longest `completed_at_device` read (an RFC 3339 time is far shorter).
    static let longestTimestamp = 64

    /// What is wrong with `completed_at_device` or `base_revision`, if anything.
    static func fieldProblem(_ report: WireReport) -> String? {
        var problems: [String] = []
        if let text = report.completedAtDevice, !isRFC3339(text) {
            problems.append("'completed_at_device' must be an RFC 3339 time such as 2026-03-01T09:30:00Z, not '\(text.prefix(40))'")
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
    static func parentRefusal(_ report: WireReport, parent: StoredReport?,
                              caller: Caller) -> (code: String, message: String)? {
        guard report.parentServerID != nil || report.parentLocalID != nil else { return nil }
        let named = report.parentServerID.map { "parent_server_id '\($0.prefix(80))'" }
            ?? "parent_local_id \(report.parentLocalID?.uuidString.lowercased() ?? "")"
        guard let parent else { return ("REPORT_INVALID", "\(named) names no report on this server") }
        guard caller.isSupervisor || parent.ownerID == caller.user.id else {
            return ("FORBIDDEN", "\(named) is another inspector's report; only its owner or a supervisor may re-inspect it")
        }
        return nil
    }

    /// Whether `text` is an RFC 3339 date-time (`T` or space, seconds,
    /// optional fraction, `Z` or an offset).
    static func isRFC3339(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= longestTimestamp else { return false }
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for i in range {
                guard (48...57).contains(bytes[i]) else { return nil }
                value = value * 10 + Int(bytes[i] - 48)
            }
            return value
        }
        guard digits(0..<4) != nil, bytes[4] == 45, let month = digits(5..<7), bytes[7] == 45, let day = digits(8..<10),
              [84, 116, 32].contains(bytes[10]), let hour = digits(11..<13), bytes[13] == 58, let minute = digits(14..<16),
              bytes[16] == 58, let second = digits(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return false }
        var i = 19
        if bytes[i] == 46 {
            i += 1
            let start = i
            while i < bytes.count, (48...57).contains(bytes[i]) { i += 1 }
            guard i > start else { return false }
        }
        guard i < bytes.count else { return false }
        if bytes[i] == 90 || bytes[i] == 122 { return i + 1 == bytes.count }
        guard bytes[i] == 43 || bytes[i] == 45, let offsetHour = digits((i + 1)..<(i + 3)), bytes.count == i + 6,
              bytes[i + 3] == 58, let offsetMinute = digits((i + 4)..<(i + 6)) else { return false }
        return offsetHour < 24 && offsetMinute < 60
    }
}
