import Foundation
import Models
import Storage

/// The assignments still to do on this device, the most pressing first, and
/// those an inspection started from a template at a place would fulfil.
extension Workspace {
    /// Open assignments with no report completed for them on this device:
    /// overdue first, then those due today (in this machine's zone), then the
    /// rest by due date; those without one last.
    public func assignmentsToDo(now: Date = Date()) throws(AppError) -> [Assignment] {
        let reports = try storage { () throws(StorageError) in try store.reports() }
        let done: Set<ReportState> = [.pending, .synced, .conflict]
        let open = try assignments().filter { assignment in
            assignment.status == .open
                && !reports.contains { $0.assignmentID == assignment.id && done.contains($0.state) }
        }
        return open.enumerated().sorted { left, right in
            let (a, b) = (Self.due(left.element), Self.due(right.element))
            if a != b { return (a ?? .distantFuture) < (b ?? .distantFuture) }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// The open assignments an inspection of `templateID` at `facilityID`
    /// (and `areaID`, or the facility as a whole) would fulfil now: overdue,
    /// due by the end of today, or with no due time, and no report begun for
    /// them on this device.
    public func assignmentsMatching(templateID: String, facilityID: String, areaID: String?, now: Date = Date())
        throws(AppError) -> [Assignment]
    {
        let reports = try storage { () throws(StorageError) in try store.reports() }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let endOfToday = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) ?? now
        return try assignmentsToDo(now: now).filter { assignment in
            assignment.templateID == templateID && assignment.facilityID == facilityID && assignment.areaID == areaID
                && (Self.due(assignment).map { $0 <= endOfToday } ?? true)
                && !reports.contains { $0.assignmentID == assignment.id }
        }
    }

    /// When `assignment` is due; nil when it has no due time (or one this device cannot read).
    static func due(_ assignment: Assignment) -> Date? { assignment.dueAt.flatMap(RFC3339.date) }
}
